import type { EventEnvelope } from '@herald/contracts';
import { tableName, type SingleStatementWrite } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { OutboxMessage } from '../entities/outbox-message.entity.js';

export const outboxChannel = (service: string): string => `herald_outbox_${service}`;

/**
 * Writes events into the service's outbox as part of the business write: inside its transaction
 * (`add`) or as a part of its single statement (`addTo`). Either way they are published if and
 * only if that write commits; NOTIFY (also transactional) wakes the relay at commit.
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
    const values: unknown[] = [];
    const param = (value: unknown, type: string) => `$${values.push(value)}::${type}`;
    await manager.query(`WITH ins AS (${this.insertSql(param, envelopes)}) SELECT pg_notify(${param(outboxChannel(this.service), 'text')}, count(*)::text) FROM ins`, values);
  }

  /** Adds the events to a single-statement write (in order, after whatever the write already holds). */
  addTo(write: SingleStatementWrite, envelopes: EventEnvelope[]): void {
    if (envelopes.length === 0) return;
    const ins = write.with('outbox', this.insertSql((value, type) => write.param(value, type), envelopes));
    write.output(`pg_notify(${write.param(outboxChannel(this.service), 'text')}, (SELECT count(*) FROM ${ins})::text)`);
  }

  private insertSql(param: (value: unknown, type: string) => string, envelopes: EventEnvelope[]): string {
    return `INSERT INTO ${this.table} (event_id, topic, message_key, envelope)
      SELECT * FROM unnest(${param(envelopes.map((e) => e.eventId), 'uuid[]')}, ${param(envelopes.map((e) => e.type), 'varchar[]')},
                           ${param(envelopes.map((e) => e.key), 'varchar[]')}, ${param(envelopes.map((e) => JSON.stringify(e)), 'jsonb[]')})
      RETURNING 1`;
  }
}
