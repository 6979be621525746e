import type { InternalClient } from '@herald/auth';
import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { CAMPAIGNS_SETTINGS, type CampaignsSettings } from '../campaigns.settings.js';
import { ownerClient } from './owner-client.js';

/** One email for sending's internal intake (docs/sending.md, "Internal intake"). */
export interface IntakeItem {
  /** Unique per project forever: the same key again never makes a second email. */
  key: string;
  to: string;
  contact?: {
    id: string;
    email: string;
    subscribed: boolean;
    data: Record<string, unknown>;
    createdAt?: string;
    updatedAt?: string;
  };
  from: string;
  fromName?: string;
  replyTo?: string;
  subject?: string;
  body?: string;
  templateId?: string;
  data?: Record<string, unknown>;
  category: 'marketing' | 'transactional';
  origin: 'campaign' | 'workflow';
  campaignId?: string;
  priority?: 'bulk' | 'normal';
  /** A test send: delivered whatever the contact's subscription (not when suppressed), recorded as a test. */
  test?: boolean;
}

/** One answer per item, in order (docs/sending.md, "Internal intake"). */
export interface IntakeResult {
  key: string;
  status: 'queued' | 'duplicate' | 'skipped';
  emailId?: string;
  /** `skipped`, and a `duplicate` whose first email was skipped: why no email is sent. */
  reason?: 'unsubscribed' | 'suppressed' | 'invalid_address';
  /** `duplicate`: what the first call with this key answered. */
  firstStatus?: 'queued' | 'skipped';
}

/**
 * Sending's internal email intake (`POST /internal/emails`, 1..500 items, all or nothing) and its
 * template lookup (`POST /internal/templates/get`: a 404 for an id that is not a template of the project).
 */
@Injectable()
export class SendingClient {
  private readonly client: InternalClient;

  constructor(@Inject(CAMPAIGNS_SETTINGS) s: CampaignsSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    this.client = ownerClient(runtime, 'sending', s.SENDING_URL, 'SENDING_URL', 60_000);
  }

  async submit(projectId: string, items: IntakeItem[], requestId?: string): Promise<IntakeResult[]> {
    const r = await this.client.post<{ results: IntakeResult[] }>(projectId, '/internal/emails', { items }, requestId);
    return r.results;
  }

  /** Resolves when `id` is a template of the project; a not_found DomainError otherwise (another project's included). */
  async template(projectId: string, id: string, requestId?: string): Promise<void> {
    await this.client.post(projectId, '/internal/templates/get', { id }, requestId);
  }
}
