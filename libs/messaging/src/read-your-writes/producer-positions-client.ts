import { InternalClient } from '@herald/auth';
import { DomainError, HERALD_RUNTIME, LATEST, type HeraldRuntime } from '@herald/core';
import { ErrorCode } from '@herald/http';
import { Inject, Injectable } from '@nestjs/common';

/** What a producer answers: every event of its outbox up to `position` is published. */
export interface PublishedAnswer {
  position: number;
}

/**
 * Distributed mode: asks a producing service (`POST /internal/positions/confirm`, at its `<NAME>_URL`)
 * to answer once its relay has published its outbox up to a position, or up to its latest event.
 */
@Injectable()
export class ProducerPositionsClient {
  private readonly clients = new Map<string, InternalClient>();

  constructor(@Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime) {}

  async confirm(
    projectId: string,
    producer: string,
    wanted: number | typeof LATEST,
    deadline: number,
  ): Promise<number> {
    const timeoutMs = Math.max(1, deadline - Date.now());
    const answer = await this.client(producer).post<PublishedAnswer>(
      projectId,
      '/internal/positions/confirm',
      { producer, upTo: String(wanted), timeoutMs },
      undefined,
      // a little longer than the producer's own wait, so that its 503 comes back rather than our timeout
      { timeoutMs: timeoutMs + 1000, observe: {} },
    );
    return answer.position;
  }

  private client(producer: string): InternalClient {
    let client = this.clients.get(producer);
    if (!client) {
      const url = this.runtime.peerUrls?.[producer];
      if (!url)
        throw new DomainError(
          'unavailable',
          ErrorCode.ServiceUnavailable,
          `The ${producer} service cannot be asked whether this project's latest changes are published: ${producer === 'gateway' ? 'GATEWAY_URL (or APP_URL)' : `${producer.toUpperCase()}_URL`} is not configured`,
        );
      client = new InternalClient('read-your-writes', producer, () => url, this.runtime.internalJwtSecret);
      this.clients.set(producer, client);
    }
    return client;
  }
}
