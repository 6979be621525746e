import { SendingCalls, type IntakeItem, type IntakeResult } from '@herald/internal-contracts';
import { InternalCalls, type CallClient } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { CAMPAIGNS } from '../consumer.js';

export type { IntakeItem, IntakeResult } from '@herald/internal-contracts';

/**
 * Sending's intake (SendingCalls.intake: 1..500 items, all or nothing) and its template lookup (a 404
 * for an id that is not a template of the project).
 */
@Injectable()
export class SendingClient {
  private readonly sending: CallClient<typeof SendingCalls>;

  constructor(calls: InternalCalls) {
    this.sending = calls.client(SendingCalls, CAMPAIGNS);
  }

  async submit(projectId: string, items: IntakeItem[], requestId?: string): Promise<IntakeResult[]> {
    return (await this.sending.intake(projectId, { items }, { requestId })).results;
  }

  /** Resolves when `id` is a template of the project; a not_found DomainError otherwise (another project's included). */
  async template(projectId: string, id: string, requestId?: string): Promise<void> {
    await this.sending.template(projectId, { id }, { requestId });
  }
}
