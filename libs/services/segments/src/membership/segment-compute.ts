import type { SegmentMembershipReason } from '@herald/contracts';
import { compileFilter } from '@herald/filters';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { ReadModelWriter } from '../read-model/read-model.writer.js';
import { Segment } from '../segments/segment.entity.js';
import { MembershipEngine, type Trace } from './membership-engine.js';
import { ProjectContext, segmentTables, type SegmentTables } from './project-context.js';

/** Changed contacts per transaction of a compute: bounds its memory and the length of its locks. */
export const COMPUTE_BATCH = 5000;

/** The cursor of a compute's difference, on the compute's own connection. */
const DIFF_CURSOR = 'segment_compute_diff';

/**
 * A whole segment at once: its compute (the difference between its filter and its stored members,
 * reconciled batch by batch through `MembershipEngine.reconcile`), its stored members counted
 * again, and its filter counted.
 */
@Injectable()
export class SegmentCompute {
  private readonly t: SegmentTables;

  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    private readonly readModel: ReadModelWriter,
    private readonly engine: MembershipEngine,
  ) {
    this.t = segmentTables(db);
  }

  /**
   * Recomputes a dynamic segment, set-based. One read-only statement computes the
   * difference between the filter over the whole project and the stored members (a hash full join:
   * the contacts that should enter or leave), held by PostgreSQL in a WITH HOLD cursor on the
   * compute's own connection, so the process holds one batch at a time whatever the segment's size.
   * Then, COMPUTE_BATCH ids of it per transaction: their contact rows are locked FOR SHARE (a
   * concurrent real-time re-evaluation of one of them waits, or is waited for) and `reconcile`
   * re-evaluates just those contacts on a fresh snapshot, writing entries and exits with one
   * INSERT … ON CONFLICT and one DELETE, and their events with one outbox statement. Contacts outside
   * the difference were consistent at its snapshot; any later change to one of them re-evaluates it
   * in real time. At the end the segment is `materialized` and its members are as of `now`, unless its
   * filter changed meanwhile (the change's own compute then does it). Returns the entries, exits and the members after.
   */
  async compute(
    projectId: string,
    segmentId: string,
    opts: { fire: boolean; reason: SegmentMembershipReason; trace?: Trace },
  ): Promise<{ added: number; removed: number; total: number } | undefined> {
    let added = 0;
    let removed = 0;
    const now = new Date();
    const runner = this.db.createQueryRunner();
    await runner.connect();
    let declared = false;
    let version: number | undefined;
    try {
      await runner.startTransaction();
      const ctx = await ProjectContext.load(runner.manager, projectId, this.readModel);
      const segment = ctx.segments.get(segmentId);
      const filter = segment && ctx.filterOf(segment);
      if (!segment || !filter || segment.type !== 'DYNAMIC') {
        await runner.commitTransaction();
        return undefined;
      }
      version = segment.version;
      const f = compileFilter(filter, {
        projectId,
        now,
        fieldTypes: ctx.fieldTypes,
        segments: ctx.resolver,
        schema: this.t.sql,
        params: [projectId, segmentId],
      });
      await runner.query(
        `DECLARE ${DIFF_CURSOR} NO SCROLL CURSOR WITH HOLD FOR
         SELECT COALESCE(l.contact_id, s.contact_id) AS contact_id
           FROM (SELECT c.contact_id FROM ${this.t.contacts} c WHERE ${f.sql}) l
           FULL JOIN (SELECT ms.contact_id FROM ${this.t.memberships} ms
                       WHERE ms.project_id = $1::varchar AND ms.segment_id = $2::varchar) s
             ON s.contact_id = l.contact_id
          WHERE l.contact_id IS NULL OR s.contact_id IS NULL
          ORDER BY 1`,
        f.params,
      );
      declared = true;
      await runner.commitTransaction(); // a WITH HOLD cursor's rows are materialised here
      for (;;) {
        const batch: { contact_id: string }[] = await runner.query(`FETCH ${COMPUTE_BATCH} FROM ${DIFF_CURSOR}`);
        if (batch.length === 0) break;
        const contactIds = batch.map((r) => r.contact_id);
        await runner.startTransaction();
        try {
          const m = runner.manager;
          await m.query(
            `SELECT count(*) FROM (SELECT 1 FROM ${this.t.contacts} WHERE project_id = $1 AND contact_id = ANY($2::varchar[])
                AND contact_id BETWEEN $3::varchar AND $4::varchar ORDER BY contact_id FOR SHARE) locked`,
            [projectId, contactIds, contactIds[0], contactIds[contactIds.length - 1]],
          );
          const batchCtx = await ProjectContext.load(m, projectId, this.readModel);
          const current = batchCtx.segments.get(segmentId);
          if (!current || current.type !== 'DYNAMIC') {
            await runner.commitTransaction();
            return undefined;
          }
          const r = await this.engine.reconcile(m, batchCtx, current, { contactIds, span: true }, { ...opts, now });
          await runner.commitTransaction();
          added += r.added;
          removed += r.removed;
        } catch (err) {
          if (runner.isTransactionActive) await runner.rollbackTransaction();
          throw err;
        }
      }
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw err;
    } finally {
      if (declared) await runner.query(`CLOSE ${DIFF_CURSOR}`).catch(() => undefined);
      await runner.release();
    }
    // raw statements (the member count's deltas, this) leave the version alone: only a change saved
    // through the entity (PATCH) moves it
    await this.db.query(
      `UPDATE ${this.t.segments} SET materialized = true, members_as_of = GREATEST(members_as_of, $4)
        WHERE project_id = $1 AND id = $2 AND version = $3`,
      [projectId, segmentId, version, now],
    );
    const total = await this.recount(this.db.manager, projectId, segmentId);
    return { added, removed, total };
  }

  /**
   * Counts the stored members again and caches the count (the truth after a compute). The segment
   * row is locked first: a membership change commits its `member_count` delta under that lock, so
   * the count (a statement after the lock) sees every change whose delta is already in, and every
   * other change adds its delta after this one.
   */
  async recount(m: EntityManager, projectId: string, segmentId: string): Promise<number> {
    const run = async (t: EntityManager) => {
      const locked = await t.query<unknown[]>(
        `SELECT 1 FROM ${this.t.segments} WHERE project_id = $1 AND id = $2 FOR UPDATE`,
        [projectId, segmentId],
      );
      if (locked.length === 0) return 0;
      const [row] = await t.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${this.t.memberships} WHERE project_id = $1 AND segment_id = $2`,
        [projectId, segmentId],
      );
      const n = row?.n ?? 0;
      await t.query(
        `UPDATE ${this.t.segments} SET member_count = $3, counted_at = now() WHERE project_id = $1 AND id = $2`,
        [projectId, segmentId, n],
      );
      return n;
    };
    return m.queryRunner?.isTransactionActive ? run(m) : m.transaction(run);
  }

  /** Counts the live members of a dynamic segment (no writes). */
  async countLive(m: EntityManager, ctx: ProjectContext, segment: Segment, now = new Date()): Promise<number> {
    const filter = ctx.filterOf(segment);
    if (!filter) return 0;
    const f = compileFilter(filter, {
      projectId: ctx.projectId,
      now,
      fieldTypes: ctx.fieldTypes,
      segments: ctx.resolver,
      schema: this.t.sql,
    });
    const [row] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.t.contacts} c WHERE ${f.sql}`,
      f.params,
    );
    return row?.n ?? 0;
  }
}
