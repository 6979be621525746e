import type { EventEnvelope } from '@herald/contracts';
import { jsonParam, SqlParams, tableName, type SingleStatementWrite, type SqlParam } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { OutboxMessage } from '../entities/outbox-message.entity.js';

export const outboxChannel = (service: string): string => `herald_outbox_${service}`;

/** The relay of the outbox's service when it runs in this process (see `Outbox.relayedBy`). */
export interface LocalRelay {
  /** Whether it is the service's active relay right now. */
  readonly isLeader: boolean;
  /** Makes it read the outbox now instead of at its next poll. */
  wake(): void;
}

/**
 * Writes events into the service's outbox as part of the business write: inside its transaction
 * (`add`) or as a part of its single statement (`addTo`). Either way they are published if and
 * only if that write commits; NOTIFY (also transactional) wakes the relay at commit.
 */
export class Outbox {
  private readonly table: string;
  private relay?: LocalRelay;

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
    const { param, values } = new SqlParams();
    await manager.query(
      `WITH ins AS (${this.insertSql(param, envelopes)}) SELECT pg_notify(${param(outboxChannel(this.service), 'text')}, count(*)::text) FROM ins`,
      values,
    );
  }

  /** The service's relay runs in this process: single-statement writes wake it directly while it leads. */
  relayedBy(relay: LocalRelay): void {
    this.relay = relay;
  }

  /**
   * Adds the events to a single-statement write (in order, after whatever the write already holds).
   * When the service's active relay runs in this process (always in standalone mode) it is woken
   * once the statement committed, without NOTIFY: a transaction that notifies takes a lock that
   * serialises the commits of every notifying transaction of the database, and wakes the listener
   * backend. Otherwise NOTIFY wakes the relay wherever it runs. If leadership moves between the
   * two, the new relay finds the events at its next poll.
   */
  addTo(write: SingleStatementWrite, envelopes: EventEnvelope[]): void {
    if (envelopes.length === 0) return;
    const ins = write.with('outbox', this.insertSql(write.param, envelopes));
    const relay = this.relay;
    if (relay?.isLeader) write.onCommit(() => relay.wake());
    else
      write.output(
        `pg_notify(${write.param(outboxChannel(this.service), 'text')}, (SELECT count(*) FROM ${ins})::text)`,
      );
  }

  private insertSql(param: SqlParam, envelopes: EventEnvelope[]): string {
    return `INSERT INTO ${this.table} (event_id, topic, message_key, envelope)
      SELECT (e->>'eventId')::uuid, e->>'type', e->>'key', e FROM jsonb_array_elements(${jsonParam(param, envelopes)}) WITH ORDINALITY AS x(e, n) ORDER BY n
      RETURNING 1`;
  }
}
