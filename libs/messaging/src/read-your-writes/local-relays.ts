import type { OutboxRelay } from '../outbox/outbox-relay.js';

/**
 * The outbox relays of the services this process hosts, by service: read-your-writes asks a local
 * producer's relay directly (standalone mode: every producer) and a remote one over internal HTTP.
 */
export class LocalRelays {
  private readonly relays = new Map<string, OutboxRelay>();

  register(service: string, relay: OutboxRelay): void {
    this.relays.set(service, relay);
  }

  get(service: string): OutboxRelay | undefined {
    return this.relays.get(service);
  }
}
