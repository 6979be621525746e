import { compileFilter, DEFAULT_FILTER_SQL_SCHEMA, type Filter, type FilterSqlSchema } from '@herald/filters';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SegmentContact, SegmentContactEmail, SegmentContactEvent } from '../contacts/read-model.entities.js';
import { SEGMENTS } from '../consumer.js';
import type { ProjectContext } from './project-context.js';
import { Segment, SegmentMembership } from './segment.entity.js';

/** The read model's tables under the service's schema, for `compileFilter`. */
export function filterSqlSchema(db: DataSource | EntityManager): FilterSqlSchema {
  const ds = 'connection' in db ? db.connection : db;
  const name = (entity: object) => {
    const meta = ds.getMetadata(entity as never);
    return meta.schema ? `${meta.schema}.${meta.tableName}` : meta.tableName;
  };
  return {
    contacts: { ...DEFAULT_FILTER_SQL_SCHEMA.contacts, table: name(SegmentContact) },
    events: { ...DEFAULT_FILTER_SQL_SCHEMA.events, table: name(SegmentContactEvent) },
    emails: { ...DEFAULT_FILTER_SQL_SCHEMA.emails, table: name(SegmentContactEmail) },
    memberships: { ...DEFAULT_FILTER_SQL_SCHEMA.memberships, table: name(SegmentMembership) },
  };
}

/**
 * Which contacts one reconciliation looks at: one contact, or a list of contact ids (`span`: the
 * ids are a contiguous stretch of the id order, as a compute's batches are).
 */
export type Scope = { contactId: string } | { contactIds: string[]; span?: true };

/** An entry (`entered`) or an exit a reconciliation wrote; `email` is null for a contact no longer in the read model. */
export interface ReconcileRow {
  entered: boolean;
  segment_id: string;
  contact_id: string;
  email: string | null;
}

/** A campaign's audience, as a condition on the read model's contacts. */
export type AudienceWhere =
  | { kind: 'all'; projectId: string }
  | { kind: 'filter'; ctx: ProjectContext; filter: Filter; now: Date }
  | { kind: 'stored'; projectId: string; segmentId: string };

/** The cursor of a compute's difference, on the compute's own connection. */
const DIFF_CURSOR = 'segment_compute_diff';

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
   * A compute batch's contacts (sorted, a stretch of the id order) locked FOR SHARE: a concurrent
   * real-time re-evaluation of one of them waits for the batch, or the batch for it.
   */
  async shareLockBatch(m: EntityManager, projectId: string, contactIds: string[]): Promise<void> {
    await m.query(
      `SELECT count(*) FROM (SELECT 1 FROM ${this.contacts} WHERE project_id = $1 AND contact_id = ANY($2::varchar[])
          AND contact_id BETWEEN $3::varchar AND $4::varchar ORDER BY contact_id FOR SHARE) locked`,
      [projectId, contactIds, contactIds[0], contactIds[contactIds.length - 1]],
    );
  }

  /**
   * Writes the difference between each segment's live filter and its stored members within `scope`,
   * in one statement: the scope's contacts read once, each filter over them, one INSERT … ON CONFLICT
   * DO NOTHING RETURNING and one DELETE … RETURNING for all, so each entry and exit is written once
   * however calls overlap. The segments must not read each other's membership (one statement does
   * not see its own writes). Answers the entries and exits with their addresses.
   */
  async reconcile(
    m: EntityManager,
    ctx: ProjectContext,
    segments: { segment: Pick<Segment, 'id'>; filter: Filter }[],
    scope: Scope,
    now: Date,
  ): Promise<ReconcileRow[]> {
    const ids = segments.map((x) => x.segment.id);
    let params: unknown[] = [ctx.projectId, ids];
    let scoped: string;
    let stored: string;
    if ('contactId' in scope) {
      params.push(scope.contactId);
      scoped = 'c.contact_id = $3::varchar';
      stored = 'ms.contact_id = $3::varchar';
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
    // planner estimates at one row: it nested-looped ins × live, 5,000 × 5,000 per batch).
    const branches: string[] = [];
    for (const { segment, filter } of segments) {
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
        perContact: !('span' in scope && scope.span),
      });
      params = f.params;
      branches.push(`SELECT ${id} AS segment_id, c.contact_id, c.email FROM scoped c WHERE ${f.sql}`);
    }
    return m.query<ReconcileRow[]>(
      `WITH scoped AS MATERIALIZED (
         SELECT * FROM ${this.contacts} c WHERE c.project_id = $1::varchar AND ${scoped}),
       live AS MATERIALIZED (${branches.join(' UNION ALL ')}),
       ins AS (
         INSERT INTO ${this.memberships} (project_id, segment_id, contact_id)
         SELECT $1::varchar, segment_id, contact_id FROM live ORDER BY segment_id, contact_id
         ON CONFLICT (project_id, segment_id, contact_id) DO NOTHING RETURNING segment_id, contact_id),
       del AS (
         DELETE FROM ${this.memberships} ms
          WHERE ms.project_id = $1::varchar AND ms.segment_id = ANY($2::varchar[]) AND ${stored}
            AND NOT EXISTS (SELECT 1 FROM live l WHERE l.segment_id = ms.segment_id AND l.contact_id = ms.contact_id)
         RETURNING ms.segment_id, ms.contact_id)
       SELECT true AS entered, ins.segment_id, ins.contact_id, c1.email FROM ins
         JOIN ${this.contacts} c1 ON c1.project_id = $1::varchar AND c1.contact_id = ins.contact_id
       UNION ALL
       SELECT false, del.segment_id, del.contact_id, c2.email FROM del
         LEFT JOIN ${this.contacts} c2 ON c2.project_id = $1::varchar AND c2.contact_id = del.contact_id`,
      params,
    );
  }

  /**
   * Declares, on the manager's connection, a WITH HOLD cursor over the difference between the
   * segment's filter over the whole project and its stored members (a hash full join: the contacts
   * that should enter or leave, in id order). Its rows are materialised when the declaring
   * transaction commits; read them with `fetchDifference`, then `closeDifference`.
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
    await m.query(
      `DECLARE ${DIFF_CURSOR} NO SCROLL CURSOR WITH HOLD FOR
         SELECT COALESCE(l.contact_id, s.contact_id) AS contact_id
           FROM (SELECT c.contact_id FROM ${this.contacts} c WHERE ${f.sql}) l
           FULL JOIN (SELECT ms.contact_id FROM ${this.memberships} ms
                       WHERE ms.project_id = $1::varchar AND ms.segment_id = $2::varchar) s
             ON s.contact_id = l.contact_id
          WHERE l.contact_id IS NULL OR s.contact_id IS NULL
          ORDER BY 1`,
      f.params,
    );
  }

  /** The next `n` contact ids of the difference (none at its end). */
  async fetchDifference(m: EntityManager, n: number): Promise<string[]> {
    const batch: { contact_id: string }[] = await m.query(`FETCH ${n} FROM ${DIFF_CURSOR}`);
    return batch.map((r) => r.contact_id);
  }

  async closeDifference(m: EntityManager): Promise<void> {
    await m.query(`CLOSE ${DIFF_CURSOR}`);
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
