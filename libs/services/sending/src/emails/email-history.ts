import type { EmailLifecycleV1, EventEnvelope } from '@herald/contracts';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SENDING } from '../consumer.js';
import { EmailsStore } from './emails.store.js';

const DETAILS = ['bounceType', 'reason', 'url', 'messageId'] as const;

/**
 * Publishes `email.*` events and records each in its email's history (`email_events`) in the same
 * transaction: whatever sending tells other services about an email, `GET /emails/:id` shows.
 */
@Injectable()
export class EmailHistory {
  constructor(
    @InjectOutbox(SENDING) private readonly outbox: Outbox,
    private readonly store: EmailsStore,
  ) {}

  async publish(m: EntityManager, events: EventEnvelope<EmailLifecycleV1>[]): Promise<void> {
    const own = events.filter((e) => e.payload.emailId);
    if (own.length > 0) {
      await this.store.recordEvents(
        m,
        own.map((e) => ({
          eventId: e.eventId,
          projectId: e.projectId,
          emailId: e.payload.emailId!,
          type: e.type.replace(/^email\./, ''),
          occurredAt: e.occurredAt,
          data: details(e.payload),
        })),
      );
    }
    await this.outbox.add(m, ...events);
  }
}

const details = (p: EmailLifecycleV1): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const key of DETAILS) if (p[key] !== undefined) out[key] = p[key];
  return out;
};
