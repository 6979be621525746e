import type { EmailLifecycleV1, EventEnvelope } from '@herald/contracts';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SENDING } from '../consumer.js';
import { EmailEvent } from './email-event.entity.js';

const DETAILS = ['bounceType', 'reason', 'url', 'messageId'] as const;

/**
 * Publishes `email.*` events and records each in its email's history (`email_events`) in the same
 * transaction: whatever sending tells other services about an email, `GET /emails/:id` shows.
 */
@Injectable()
export class EmailHistory {
  constructor(@InjectOutbox(SENDING) private readonly outbox: Outbox) {}

  async publish(m: EntityManager, events: EventEnvelope<EmailLifecycleV1>[]): Promise<void> {
    const own = events.filter((e) => e.payload.emailId);
    if (own.length > 0) {
      await m.query(
        `INSERT INTO ${tableName(m, EmailEvent)} (event_id, project_id, email_id, type, occurred_at, data)
         SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[], $6::jsonb[])
         ON CONFLICT DO NOTHING`,
        [
          own.map((e) => e.eventId),
          own.map((e) => e.projectId),
          own.map((e) => e.payload.emailId),
          own.map((e) => e.type.replace(/^email\./, '')),
          own.map((e) => e.occurredAt),
          own.map((e) => JSON.stringify(details(e.payload))),
        ],
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
