import { compileFilter, type Filter, type FilterSqlSchema } from '@herald/filters';
import { preparedInTransaction, tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SegmentContact } from '../contacts/read-model.entities.js';
import { SEGMENTS } from '../consumer.js';
import { publishingReconciliation, type EventsInSql, type ReconcileCount } from './events-in-sql.store.js';
import type { ProjectContext } from './project-context.js';
import { Segment, SegmentMembership } from './segment.entity.js';

import {
  segmentContactPairs,
  type AudienceWhere,
  type DifferenceBatch,
  type ReconcileRow,
  type Scope,
} from './evaluation-scope.js';
import { filterSqlSchema } from './filter-sql-schema.js';

/**
 * The real-time reconciliations' statements kept prepared per connection (`preparedInTransaction`):
 * a consumer round's statement is the same text while the project's segments stay (what varies is
 * in parameters), and a generic plan spares PostgreSQL planning every segment's filter at each
 * round — the most of the statement's time for a created contact, which every segment reads.
 */
const REALTIME_PREPARED = 32;

/** The table of a compute's difference: a temporary table of the compute's own connection (session). */
const DIFF_TABLE = 'pg_temp.segment_compute_diff';

/**
 * The statements that evaluate segments' filters (`compileFilter`) over the read model: the
 * reconciliation of stored members with the live filter and the locks around it, a compute's
 * difference, live counts and pages, and campaigns' audiences. Every method runs in the caller's
 * transaction, on its connection.
 */
@Injectable()
export class EvaluationStore {
  private readonly sql: FilterSqlSchema;
  private readonly contacts: string;
  private readonly memberships: string;
  private readonly segments: string;
  private readonly prepared = preparedInTransaction(REALTIME_PREPARED);

  constructor(@InjectDataSource(SEGMENTS) db: DataSource) {
    this.sql = filterSqlSchema(db);
    this.contacts = tableName(db, SegmentContact);
    this.memberships = tableName(db, SegmentMembership);
    this.segments = tableName(db, Segment);
  }

  /**
   * Takes the advisory lock of each contact (in contact order, held to the commit), so that one
   * re-evaluation of a contact runs at a time; answers whether the project has a dynamic segment.
   */
  async lockForReevaluation(m: EntityManager, projectId: string, contactIds: string[]): Promise<boolean> {
    const [{ dynamic }] = await m.query<[{ dynamic: boolean }]>(
      `SELECT count(pg_advisory_xact_lock(hashtext($1), hashtext(k))) AS locked,
              EXISTS (SELECT 1 FROM ${this.segments} WHERE project_id = $1 AND type = 'DYNAMIC') AS dynamic
         FROM (SELECT k FROM unnest($2::varchar[]) k ORDER BY k) ordered`,
      [projectId, contactIds],
    );
    return dynamic;
  }

  /** Locks the contacts' read-model rows (key order) against a compute batch, to the commit. */
  async lockContacts(m: EntityManager, projectId: string, contactIds: string[]): Promise<void> {
    await m.query(
      `SELECT count(*) FROM (SELECT 1 FROM ${this.contacts} WHERE project_id = $1 AND contact_id = ANY($2::varchar[])
          ORDER BY contact_id FOR UPDATE) locked`,
      [projectId, contactIds],
    );
  }

  /**
   * A compute batch's contacts (one batch of its difference, a stretch of the id order) locked FOR
   * SHARE, in id order: a concurrent real-time re-evaluation of one of them waits for the batch, or
   * the batch for it. The batch's span bounds a range read of the contacts' primary key, joined
   * with the difference's rows by hash (no descent of the key per contact).
   */
  async shareLockDifference(m: EntityManager, projectId: string, batch: DifferenceBatch): Promise<void> {
    await m.query(
      `SELECT count(*) FROM (SELECT 1 FROM ${this.contacts} c WHERE c.project_id = $1
          AND c.contact_id BETWEEN $2::varchar AND $3::varchar
          AND c.contact_id IN (SELECT d.contact_id FROM ${DIFF_TABLE} d WHERE d.n > $4 AND d.n <= $5)
          ORDER BY c.contact_id FOR SHARE OF c) locked`,
      [projectId, batch.first, batch.last, batch.from, batch.to],
    );
  }

  /**
   * Writes the difference between each segment's live filter and its stored members within `scope`,
   * in one statement: the scope's contacts read once, each filter over them, one INSERT … ON CONFLICT
   * DO NOTHING RETURNING and one DELETE … RETURNING for all, so each entry and exit is written once
   * however calls overlap. The segments must not read each other's membership (one statement does
   * not see its own writes). Answers the entries and exits with their addresses (`addresses: false`,
   * as a silent compute needs none: with a null address, no read of the contacts for them).
   */
  async reconcile(
    m: EntityManager,
    ctx: ProjectContext,
    segments: { segment: Pick<Segment, 'id'>; filter: Filter }[],
    scope: Scope,
    now: Date,
    opts: { addresses?: boolean } = {},
  ): Promise<ReconcileRow[]> {
    const { ctes, params } = this.reconciliation(ctx, segments, scope, now, opts.addresses ?? true);
    const sql = `WITH ${ctes} SELECT * FROM changed`;
    // a consumer's changed contacts (one, or a few scattered ids): the same text at every round
    const realtime = 'contactId' in scope || ('contactIds' in scope && !scope.span);
    return realtime ? this.prepared<ReconcileRow>(m, sql, params) : m.query<ReconcileRow[]>(sql, params);
  }

  /**
   * `reconcile` of a batch of a compute's difference that publishes nothing: its entries and exits
   * counted per segment in the statement (`ReconcileCount`), no row of them sent to the process and
   * no address read.
   */
  async reconcileCounting(
    m: EntityManager,
    ctx: ProjectContext,
    segments: { segment: Pick<Segment, 'id'>; filter: Filter }[],
    scope: Scope,
    now: Date,
  ): Promise<ReconcileCount[]> {
    const { ctes, params } = this.reconciliation(ctx, segments, scope, now, false);
    return m.query<ReconcileCount[]>(
      `WITH ${ctes}
       SELECT segment_id, count(*) FILTER (WHERE entered)::int AS added, count(*) FILTER (WHERE NOT entered)::int AS removed
         FROM changed GROUP BY segment_id`,
      params,
    );
  }

  /**
   * `reconcile`, with the events of the tracking segments among them written to the outbox by the
   * same statement, their envelopes built in SQL (`EventsInSql`): the entries and exits never pass
   * through the process. Answers each segment's entries and exits in number.
   */
  async reconcilePublishing(
    m: EntityManager,
    ctx: ProjectContext,
    segments: { segment: Pick<Segment, 'id'>; filter: Filter }[],
    scope: Scope,
    now: Date,
    events: EventsInSql,
  ): Promise<ReconcileCount[]> {
    const { ctes, params } = this.reconciliation(ctx, segments, scope, now, true);
    return publishingReconciliation(m, ctx.projectId, ctes, params, events);
  }

  /**
   * The CTEs of a reconciliation (`reconcile`), the last of them, `changed`, its entries and exits
   * as `ReconcileRow`s, and their parameters.
   */
  private reconciliation(
    ctx: ProjectContext,
    segments: { segment: Pick<Segment, 'id'>; filter: Filter }[],
    scope: Scope,
    now: Date,
    addresses: boolean,
  ): { ctes: string; params: unknown[] } {
    const ids = segments.map((x) => x.segment.id);
    let params: unknown[] = [ctx.projectId, ids];
    let scoped: string;
    let stored: string;
    if ('contactId' in scope) {
      params.push(scope.contactId);
      scoped = 'c.contact_id = $3::varchar';
      stored = 'ms.contact_id = $3::varchar';
    } else if ('difference' in scope) {
      // a batch of a compute's difference: a range read of the keys over its span, hash-joined with
      // its rows in the difference's table (the ids never leave PostgreSQL)
      const b = scope.difference;
      params.push(b.first, b.last, b.from, b.to);
      const batch = `SELECT d.contact_id FROM ${DIFF_TABLE} d WHERE d.n > $5 AND d.n <= $6`;
      scoped = `c.contact_id BETWEEN $3::varchar AND $4::varchar AND c.contact_id IN (${batch})`;
      // the stored members of the span, kept when in the batch by a hashed subplan (NOT … NOT IN:
      // never a join): the members' statistics lag a compute's writes (a new segment's id is not in
      // them), and a join planned on them ran as a nested loop over the batch's rows per stored
      // member — 4,000 × 5,500 rows, 3.4 s for one batch after 10% of a segment changed
      stored = `ms.contact_id BETWEEN $3::varchar AND $4::varchar AND NOT (ms.contact_id NOT IN (${batch}))`;
    } else {
      // a compute's contiguous batch also gives its ids' span (min and max in PostgreSQL's collation):
      // the planner then reads the batch by the primary key, not a scan of the project's contacts
      // hashing 5,000 ids; scattered ids (the contacts a consumer batch changed) are looked up one by
      // one in the keys, as their span would cover most of the project and be scanned
      params.push(scope.contactIds);
      const span = (col: string) =>
        scope.span
          ? `${col} = ANY($3::varchar[]) AND ${col} >= (SELECT min(k) FROM unnest($3::varchar[]) k)` +
            ` AND ${col} <= (SELECT max(k) FROM unnest($3::varchar[]) k)`
          : `${col} = ANY($3::varchar[])`;
      scoped = span('c.contact_id');
      stored = span('ms.contact_id');
    }
    // The scope's contacts first, by the primary key (one contact, or one batch of a compute's ids),
    // materialised once for every segment, then each filter on them: the filter never reaches the
    // scan, where the planner would AND the keys with an index of the filter (the GIN on data: the
    // posting list of every contact matching in the project) — per batch, a cost in the segment's size.
    // The entries' addresses come from the contacts' primary key, not from joining `live` (a CTE the
    // planner estimates at one row: it nested-looped ins × live, 5,000 × 5,000 per batch). For the
    // same reason the exits are the stored members NOT IN `live` (a hashed subplan: old EXCEPT new in
    // one pass), not NOT EXISTS, which the planner ran as a nested loop over `live` per stored member:
    // 10,000 × 10,000 per batch of a compute whose difference holds both entries and exits.
    // Each segment's own contacts, when the scope names them: an array of ids in each branch (a
    // plain condition, which the planner tests before the filter's costlier ones, so the filter
    // reads only them), and (segment, contact) pairs that bound the exits to what was evaluated.
    const named = 'contactIds' in scope && scope.bySegment ? { ...scope, bySegment: scope.bySegment } : undefined;
    if (named) {
      const pairs = segmentContactPairs(segments, named);
      params.push(pairs.segmentIds, pairs.contactIds);
      stored += ` AND (ms.segment_id, ms.contact_id) IN (SELECT * FROM unnest($${params.length - 1}::varchar[], $${params.length}::varchar[]))`;
    }
    const ownContacts = (segmentId: string): string => {
      if (!named) return '';
      params.push(named.bySegment.get(segmentId) ?? named.contactIds);
      return `c.contact_id = ANY($${params.length}::varchar[]) AND `;
    };
    const branches: string[] = [];
    for (const { segment, filter } of segments) {
      const own = ownContacts(segment.id);
      params.push(segment.id);
      const id = `$${params.length}::varchar`;
      const f = compileFilter(filter, {
        projectId: ctx.projectId,
        now,
        fieldTypes: ctx.fieldTypes,
        segments: ctx.resolver,
        schema: this.sql,
        params,
        // a consumer's changed contacts: each probes its own records by key, whatever the statistics
        perContact: !('difference' in scope || ('span' in scope && scope.span)),
      });
      params = f.params;
      branches.push(`SELECT ${id} AS segment_id, c.contact_id, c.email FROM scoped c WHERE ${own}(${f.sql})`);
    }
    const entered = addresses
      ? `SELECT true AS entered, ins.segment_id, ins.contact_id, c1.email FROM ins
           JOIN ${this.contacts} c1 ON c1.project_id = $1::varchar AND c1.contact_id = ins.contact_id`
      : `SELECT true AS entered, ins.segment_id, ins.contact_id, NULL::varchar AS email FROM ins`;
    const exited = addresses
      ? `SELECT false, del.segment_id, del.contact_id, c2.email FROM del
           LEFT JOIN ${this.contacts} c2 ON c2.project_id = $1::varchar AND c2.contact_id = del.contact_id`
      : `SELECT false, del.segment_id, del.contact_id, NULL::varchar FROM del`;
    const ctes = `scoped AS MATERIALIZED (
         SELECT * FROM ${this.contacts} c WHERE c.project_id = $1::varchar AND ${scoped}),
       live AS MATERIALIZED (${branches.join(' UNION ALL ')}),
       ins AS (
         INSERT INTO ${this.memberships} (project_id, segment_id, contact_id)
         SELECT $1::varchar, segment_id, contact_id FROM live ORDER BY segment_id, contact_id
         ON CONFLICT (project_id, segment_id, contact_id) DO NOTHING RETURNING segment_id, contact_id),
       del AS (
         DELETE FROM ${this.memberships} ms
          WHERE ms.project_id = $1::varchar AND ms.segment_id = ANY($2::varchar[]) AND ${stored}
            AND (ms.segment_id, ms.contact_id) NOT IN (SELECT l.segment_id, l.contact_id FROM live l)
         RETURNING ms.segment_id, ms.contact_id),
       changed AS (
         ${entered}
         UNION ALL
         ${exited})`;
    return { ctes, params };
  }

  /**
   * Writes, on the manager's connection, the difference between the segment's filter over the whole
   * project and its stored members (a hash full join: the contacts that should enter or leave) into
   * a temporary table of the session, numbered in id order (`n`), in one statement; the table
   * outlives the transaction that wrote it, and is read a batch at a time (`differenceBatch`), then
   * dropped (`dropDifference`).
   */
  async declareDifference(
    m: EntityManager,
    ctx: ProjectContext,
    segmentId: string,
    filter: Filter,
    now: Date,
  ): Promise<void> {
    const f = compileFilter(filter, {
      projectId: ctx.projectId,
      now,
      fieldTypes: ctx.fieldTypes,
      segments: ctx.resolver,
      schema: this.sql,
      params: [ctx.projectId, segmentId],
    });
    await this.dropDifference(m);
    await m.query(
      `CREATE TEMPORARY TABLE segment_compute_diff AS
         SELECT row_number() OVER (ORDER BY COALESCE(l.contact_id, s.contact_id)) AS n,
                COALESCE(l.contact_id, s.contact_id) AS contact_id
           FROM (SELECT c.contact_id FROM ${this.contacts} c WHERE ${f.sql}) l
           FULL JOIN (SELECT ms.contact_id FROM ${this.memberships} ms
                       WHERE ms.project_id = $1::varchar AND ms.segment_id = $2::varchar) s
             ON s.contact_id = l.contact_id
          WHERE l.contact_id IS NULL OR s.contact_id IS NULL`,
      f.params,
    );
    await m.query(`CREATE INDEX ON ${DIFF_TABLE} (n)`);
    // its statistics, for the batches' plans (a range read of the contacts' keys, hash-joined with it)
    await m.query(`ANALYZE ${DIFF_TABLE}`);
  }

  /** The batch of the difference's rows `from` < n <= `to`, with its span (none past its end). */
  async differenceBatch(m: EntityManager, from: number, to: number): Promise<DifferenceBatch | undefined> {
    const [row] = await m.query<{ first: string | null; last: string | null }[]>(
      `SELECT min(contact_id) AS first, max(contact_id) AS last FROM ${DIFF_TABLE} WHERE n > $1 AND n <= $2`,
      [from, to],
    );
    return row?.first != null && row.last != null ? { from, to, first: row.first, last: row.last } : undefined;
  }

  async dropDifference(m: EntityManager): Promise<void> {
    await m.query(`DROP TABLE IF EXISTS ${DIFF_TABLE}`);
  }

  /** How many contacts the filter matches now. */
  async countMatching(m: EntityManager, ctx: ProjectContext, filter: Filter, now: Date): Promise<number> {
    const f = this.compile(ctx, filter, now);
    const [row] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.contacts} c WHERE ${f.sql}`,
      f.params,
    );
    return row?.n ?? 0;
  }

  /** The contacts the filter matches now: how many, and one page of them in contact id order. */
  async pageMatching(
    m: EntityManager,
    ctx: ProjectContext,
    filter: Filter,
    now: Date,
    limit: number,
    offset: number,
  ): Promise<{ n: number; rows: Record<string, unknown>[] }> {
    const f = this.compile(ctx, filter, now);
    const [{ n }] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.contacts} c WHERE ${f.sql}`,
      f.params,
    );
    const rows = await m.query<Record<string, unknown>[]>(
      `SELECT c.* FROM ${this.contacts} c WHERE ${f.sql} ORDER BY c.contact_id
        LIMIT ${limit} OFFSET ${offset}`,
      f.params,
    );
    return { n, rows };
  }

  /** How many contacts of the audience are subscribed. */
  async countSubscribed(m: EntityManager, audience: AudienceWhere): Promise<number> {
    const { where, params } = this.audienceWhere(audience);
    const [{ n }] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.contacts} c WHERE ${where} AND c.subscribed`,
      params,
    );
    return n;
  }

  /** One keyset page of the audience after contact id `after` (every contact, subscribed or not), in contact id order. */
  audiencePage(
    m: EntityManager,
    audience: AudienceWhere,
    after: string | undefined,
    limit: number,
  ): Promise<Record<string, unknown>[]> {
    const { where, params } = this.audienceWhere(audience);
    const all = [...params, after ?? ''];
    return m.query<Record<string, unknown>[]>(
      `SELECT c.* FROM ${this.contacts} c WHERE ${where} AND c.contact_id > $${all.length}
          ORDER BY c.contact_id LIMIT ${Math.max(1, Math.min(limit, 2000))}`,
      all,
    );
  }

  private audienceWhere(a: AudienceWhere): { where: string; params: unknown[] } {
    if (a.kind === 'all') return { where: 'c.project_id = $1', params: [a.projectId] };
    if (a.kind === 'filter') {
      const f = this.compile(a.ctx, a.filter, a.now);
      return { where: f.sql, params: f.params };
    }
    return {
      where: `c.project_id = $1 AND EXISTS (SELECT 1 FROM ${this.memberships} ms
                WHERE ms.project_id = $1 AND ms.segment_id = $2 AND ms.contact_id = c.contact_id)`,
      params: [a.projectId, a.segmentId],
    };
  }

  private compile(ctx: ProjectContext, filter: Filter, now: Date) {
    return compileFilter(filter, {
      projectId: ctx.projectId,
      now,
      fieldTypes: ctx.fieldTypes,
      segments: ctx.resolver,
      schema: this.sql,
    });
  }
}
