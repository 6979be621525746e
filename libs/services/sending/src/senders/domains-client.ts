import { InternalClient } from '@herald/auth';
import { HERALD_RUNTIME, internalBaseUrl, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { SENDING } from '../consumer.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';

/** The domains service's answer for a sender domain (its internal route `POST /internal/domains/sender`). */
export type OwnerSenderDomain =
  | { verified: true; domainId: string; domain: string; dkimSelector: string; dkimPrivateKeySealed: string }
  | { verified: false; domain: string };

/**
 * The domains service as the sending service needs it, answered at once (internal HTTP): whether
 * a domain is verified for a project, and its DKIM key (sealed), when the local copy does not know.
 */
@Injectable()
export class DomainsClient {
  private readonly client: InternalClient;

  constructor(@Inject(SENDING_SETTINGS) settings: SendingSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    const baseUrl = () => internalBaseUrl(runtime, settings.DOMAINS_URL, 'DOMAINS_URL');
    this.client = new InternalClient(SENDING, 'domains', baseUrl, runtime.internalJwtSecret, 5_000);
  }

  senderDomain(projectId: string, domain: string): Promise<OwnerSenderDomain> {
    return this.client.post(projectId, '/internal/domains/sender', { domain });
  }
}
