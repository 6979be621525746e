import { InternalClient } from '@herald/auth';
import { HERALD_RUNTIME, internalBaseUrl, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { WORKFLOWS } from '../consumer.js';
import { WORKFLOWS_SETTINGS, type WorkflowsSettings } from '../workflows.settings.js';

/** A contact as the contacts service answers it (the fields workflows use). */
export interface RemoteContact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** One item of sending's internal intake (docs: /work/briefs/internal-emails.md). */
export interface IntakeItem {
  key: string;
  to: string;
  /** The contact to render with and track the email under (sent when `to` is not the contact's address). */
  contact?: {
    id: string;
    email: string;
    subscribed: boolean;
    data: Record<string, unknown>;
    createdAt?: string;
    updatedAt?: string;
  };
  from?: string;
  fromName?: string;
  replyTo?: string;
  templateId: string;
  data?: Record<string, unknown>;
  category: 'marketing' | 'transactional';
  origin: 'workflow';
  workflowId: string;
  executionId: string;
  priority: 'normal';
}

export interface IntakeResult {
  key: string;
  status: 'queued' | 'duplicate' | 'skipped';
  emailId?: string;
  reason?: string;
}

export interface RemoteTemplate {
  id: string;
  name: string;
  type: 'marketing' | 'transactional';
  subject: string;
}

function client(
  target: 'contacts' | 'sending' | 'segments',
  runtime: HeraldRuntime,
  url: () => string | undefined,
): InternalClient {
  return new InternalClient(
    WORKFLOWS,
    target,
    () => internalBaseUrl(runtime, url(), `${target.toUpperCase()}_URL`),
    runtime.internalJwtSecret,
  );
}

/** The contacts service as workflows needs it, answered at once (internal HTTP). */
@Injectable()
export class ContactsClient {
  private readonly client: InternalClient;

  constructor(@Inject(WORKFLOWS_SETTINGS) settings: WorkflowsSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    this.client = client('contacts', runtime, () => settings.CONTACTS_URL);
  }

  get(projectId: string, contactId: string): Promise<RemoteContact> {
    return this.client.post(projectId, '/internal/contacts/get', { contactId });
  }

  /**
   * UPDATE_CONTACT: the same data rules as every write (an upsert of the contact's address), applied
   * once per `stepRunId` (contacts keeps the key: a retried or redelivered step run changes nothing).
   */
  update(
    projectId: string,
    email: string,
    change: { data?: Record<string, unknown>; subscribed?: boolean },
    stepRunId: string,
  ): Promise<{ contact: RemoteContact; changedKeys: string[]; duplicate: boolean }> {
    return this.client.post(
      projectId,
      '/internal/contacts/upsert',
      { email, ...change, subscribedIfNew: false, reason: 'workflow', idempotencyKey: `workflow-run:${stepRunId}` },
      stepRunId,
    );
  }
}

/** Sending's internal intake (emails by idempotent key) and its template lookup. */
@Injectable()
export class SendingClient {
  private readonly client: InternalClient;

  constructor(@Inject(WORKFLOWS_SETTINGS) settings: WorkflowsSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    this.client = client('sending', runtime, () => settings.SENDING_URL);
  }

  async send(projectId: string, items: IntakeItem[]): Promise<IntakeResult[]> {
    const r = await this.client.post<{ results: IntakeResult[] }>(projectId, '/internal/emails', { items });
    return r.results;
  }

  template(projectId: string, id: string): Promise<RemoteTemplate> {
    return this.client.post(projectId, '/internal/templates/get', { id });
  }
}

/** The segments service as workflows needs it when a CONDITION step is saved (internal HTTP). */
@Injectable()
export class SegmentsClient {
  private readonly client: InternalClient;

  constructor(@Inject(WORKFLOWS_SETTINGS) settings: WorkflowsSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    this.client = client('segments', runtime, () => settings.SEGMENTS_URL);
  }

  /** Which of `ids` are segments of the project (another project's are not). */
  async known(projectId: string, ids: string[], requestId?: string): Promise<Set<string>> {
    const r = await this.client.post<{ ids: string[] }>(projectId, '/internal/segments/known', { ids }, requestId);
    return new Set(r.ids);
  }
}
