import { mayPublish, type EventEnvelope } from '@herald/contracts';
import { positionsContext, SERVICE_NAMES, type RequestPositions } from '@herald/core';
import { jsonParam, SqlParams, tableName, type SingleStatementWrite, type SqlParam } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { OutboxMessage } from '../entities/outbox-message.entity.js';

export const outboxChannel = (service: string): string => `herald_outbox_${service}`;

/**
 * A UUIDv7 computed by PostgreSQL (the current millisecond, then random bits: version 7, RFC 4122
 * variant), the kind of id `create` gives an event in the process, for envelopes built in SQL.
 */
export const SQL_UUID_V7 =
  "encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid";

/**
 * Events whose envelopes a statement of the caller builds in SQL, written by that statement inside
 * the transaction of its business write (as `Outbox.add`): see `Outbox.inStatement`.
 */
export interface OutboxInStatement {
  /**
   * The body of a data-modifying CTE writing the envelopes of `source` — a relation with `e`, the
   * envelope as jsonb (every field `create` gives), and `n`, their order — into the outbox in that
   * order, returning their ids (`id`).
   */
  insert(source: string): string;
  /** The expression, over that CTE (`ins`), that wakes the relay at commit (NOTIFY) if it wrote any. */
  notify(ins: string, param: SqlParam): string;
  /** Read-your-writes: after the statement ran, the last id it wrote (`max(id)` of `ins`), for its projects. */
  wrote(projectIds: Iterable<string>, last: unknown): void;
}

const projectsOf = (envelopes: EventEnvelope[]): string[] => envelopes.map((e) => e.projectId);

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
    private readonly dataSource: DataSource,
  ) {
    this.table = tableName(dataSource, OutboxMessage);
  }

  /**
   * Read-your-writes: the current answer shows the project the end of work done outside a request (a
   * finished import or bulk job), so the project's later requests observe every event this service
   * has committed until now, as if this request had written them.
   */
  async exposeLatest(projectId: string): Promise<void> {
    const request = positionsContext.getStore();
    if (!request) return;
    const rows: { last: string | null }[] = await this.dataSource.query(`SELECT max(id) AS last FROM ${this.table}`);
    const id = Number(rows[0]?.last ?? 0);
    if (id > 0) request.wrote([projectId], this.service, id);
  }

  async add(manager: EntityManager, ...envelopes: EventEnvelope[]): Promise<void> {
    if (envelopes.length === 0) return;
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('Outbox.add must run inside the transaction of the business write');
    }
    this.assertProducer(envelopes.map((e) => e.type));
    const { param, values } = new SqlParams();
    const rows: { last: string | null }[] = await manager.query(
      `WITH ins AS (${this.insertSql(param, envelopes)}) SELECT pg_notify(${param(outboxChannel(this.service), 'text')}, count(*)::text), max(id) AS last FROM ins`,
      values,
    );
    this.recordPosition(positionsContext.getStore(), projectsOf(envelopes), rows[0]?.last);
  }

  /**
   * Events built in SQL by one of the caller's statements, in the transaction of its write: the same
   * rows, wake-up and read-your-writes position as `add`, with no envelope passing through the
   * process. The statement must build each envelope as the topic's contract would (`create`), and
   * only of `topics`.
   */
  inStatement(manager: EntityManager, topics: readonly string[]): OutboxInStatement {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('Outbox.inStatement must run inside the transaction of the business write');
    }
    this.assertProducer(topics);
    const request = positionsContext.getStore();
    return {
      insert: (source) => `INSERT INTO ${this.table} (event_id, topic, message_key, envelope)
        SELECT (s.e->>'eventId')::uuid, s.e->>'type', s.e->>'key', s.e FROM ${source} s ORDER BY s.n
        RETURNING id`,
      notify: (ins, param) =>
        `(SELECT pg_notify(${param(outboxChannel(this.service), 'text')}, count(*)::text) FROM ${ins} HAVING count(*) > 0)`,
      wrote: (projectIds, last) => this.recordPosition(request, [...projectIds], last),
    };
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
    this.assertProducer(envelopes.map((e) => e.type));
    const ins = write.with('outbox', this.insertSql(write.param, envelopes));
    const request = positionsContext.getStore();
    if (request)
      write.output(`(SELECT max(id) FROM ${ins})`, (last) => this.recordPosition(request, projectsOf(envelopes), last));
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
      RETURNING id`;
  }

  /**
   * A Herald service publishes only the topics it produces (TOPIC_PRODUCERS): consumers wait on
   * producers by topic, so an undeclared one would be read stale. (Test outboxes of other names may
   * write any topic.)
   */
  private assertProducer(topics: readonly string[]): void {
    if (!(SERVICE_NAMES as readonly string[]).includes(this.service)) return;
    for (const topic of new Set(topics))
      if (!mayPublish(this.service, topic))
        throw new Error(`the ${this.service} service does not publish ${topic} (TOPIC_PRODUCERS in @herald/contracts)`);
  }

  /**
   * Read-your-writes: the request that wrote these events answers their position (the last outbox
   * id), per project, so that the project's later requests wait for copies fed by them.
   */
  private recordPosition(request: RequestPositions | undefined, projectIds: string[], last: unknown): void {
    const id = Number(last);
    if (!request || !Number.isSafeInteger(id) || id <= 0) return;
    request.wrote(new Set(projectIds.filter(Boolean)), this.service, id);
  }
}
