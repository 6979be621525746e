import type { InternalClient } from '@herald/auth';
import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { CAMPAIGNS_SETTINGS, type CampaignsSettings } from '../campaigns.settings.js';
import { ownerClient } from './owner-client.js';

/** The domains service as campaigns needs it (internal HTTP): is a sender domain verified for the project. */
@Injectable()
export class DomainsClient {
  private readonly client: InternalClient;

  constructor(@Inject(CAMPAIGNS_SETTINGS) s: CampaignsSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    this.client = ownerClient(runtime, 'domains', s.DOMAINS_URL, 'DOMAINS_URL', 5_000);
  }

  async verified(projectId: string, domain: string, requestId?: string): Promise<boolean> {
    const r = await this.client.post<{ verified: boolean }>(
      projectId,
      '/internal/domains/sender',
      { domain },
      requestId,
    );
    return r.verified === true;
  }
}
