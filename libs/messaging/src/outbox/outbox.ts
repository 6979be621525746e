import type { EventEnvelope } from '@herald/contracts';
import { tableName } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { OutboxMessage } from '../entities/outbox-message.entity.js';

export const outboxChannel = (service: string): string => `herald_outbox_${service}`;

/**
 * Writes events into the service's outbox inside the caller's transaction: they are published if
 * and only if that transaction commits. NOTIFY (also transactional) wakes the relay at commit.
 */
export class Outbox {
  private readonly table: string;

  constructor(
    private readonly service: string,
    dataSource: DataSource,
  ) {
    this.table = tableName(dataSource, OutboxMessage);
  }

  async add(manager: EntityManager, ...envelopes: EventEnvelope[]): Promise<void> {
    if (envelopes.length === 0) return;
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('Outbox.add must run inside the transaction of the business write');
    }
    await manager.query(
      `WITH ins AS (
         INSERT INTO ${this.table} (event_id, topic, message_key, envelope)
         SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::jsonb[])
         RETURNING 1)
       SELECT pg_notify($5, count(*)::text) FROM ins`,
      [
        envelopes.map((e) => e.eventId),
        envelopes.map((e) => e.type),
        envelopes.map((e) => e.key),
        envelopes.map((e) => JSON.stringify(e)),
        outboxChannel(this.service),
      ],
    );
  }
}
