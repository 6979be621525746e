import {
  ContactsCalls,
  SegmentsCalls,
  SendingCalls,
  type ContactSnapshot,
  type IntakeItem,
  type IntakeResult,
  type TemplateSummary,
} from '@herald/internal-contracts';
import { InternalCalls, type CallClient } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { WORKFLOWS } from '../consumer.js';

export type {
  ContactSnapshot as RemoteContact,
  IntakeItem,
  IntakeResult,
  TemplateSummary as RemoteTemplate,
} from '@herald/internal-contracts';

/** The contacts service as workflows needs it, answered at once (ContactsCalls). */
@Injectable()
export class ContactsClient {
  private readonly contacts: CallClient<typeof ContactsCalls>;

  constructor(calls: InternalCalls) {
    this.contacts = calls.client(ContactsCalls, WORKFLOWS);
  }

  get(projectId: string, contactId: string): Promise<ContactSnapshot> {
    return this.contacts.get(projectId, { contactId });
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
  ): Promise<{ contact: ContactSnapshot; changedKeys: string[]; duplicate: boolean }> {
    return this.contacts.upsert(
      projectId,
      { email, ...change, subscribedIfNew: false, reason: 'workflow', idempotencyKey: `workflow-run:${stepRunId}` },
      { requestId: stepRunId },
    );
  }
}

/** Sending's intake (emails by idempotent key) and its template lookup (SendingCalls). */
@Injectable()
export class SendingClient {
  private readonly sending: CallClient<typeof SendingCalls>;

  constructor(calls: InternalCalls) {
    this.sending = calls.client(SendingCalls, WORKFLOWS);
  }

  async send(projectId: string, items: IntakeItem[]): Promise<IntakeResult[]> {
    return (await this.sending.intake(projectId, { items })).results;
  }

  template(projectId: string, id: string): Promise<TemplateSummary> {
    return this.sending.template(projectId, { id });
  }
}

/** The segments service as workflows needs it when a CONDITION step is saved (SegmentsCalls). */
@Injectable()
export class SegmentsClient {
  private readonly segments: CallClient<typeof SegmentsCalls>;

  constructor(calls: InternalCalls) {
    this.segments = calls.client(SegmentsCalls, WORKFLOWS);
  }

  /** Which of `ids` are segments of the project (another project's are not). */
  async known(projectId: string, ids: string[], requestId?: string): Promise<Set<string>> {
    return new Set((await this.segments.known(projectId, { ids }, { requestId })).ids);
  }
}
