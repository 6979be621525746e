import type { SegmentMembershipReason } from '@herald/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { EvaluationStore } from './evaluation.store.js';
import { MembershipEngine, type Trace } from './membership-engine.js';
import { ProjectContext } from './project-context.js';
import type { Segment } from './segment.entity.js';
import { SegmentsStore } from './segments.store.js';

/** Changed contacts per transaction of a compute: bounds the length of its locks (the process holds none of their ids). */
export const COMPUTE_BATCH = 10_000;

/**
 * A whole segment at once: its compute (the difference between its filter and its stored members,
 * reconciled batch by batch through `MembershipEngine.reconcile`), its stored members counted
 * again, and its filter counted.
 */
@Injectable()
export class SegmentCompute {
  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    private readonly segments: SegmentsStore,
    private readonly evaluation: EvaluationStore,
    private readonly engine: MembershipEngine,
  ) {}

  /**
   * Recomputes a dynamic segment, set-based, in PostgreSQL. One statement writes the difference
   * between the filter over the whole project and the stored members (a hash full join: the
   * contacts that should enter or leave) into a temporary table of the compute's own connection,
   * numbered in id order; the process never holds its ids, whatever the segment's size. Then,
   * COMPUTE_BATCH rows of it per transaction: their contact rows are locked FOR SHARE (a concurrent
   * real-time re-evaluation of one of them waits, or is waited for) and `reconcile` re-evaluates just
   * those contacts on a fresh snapshot (a range read of the keys over the batch's span, joined with
   * the difference), writing entries and exits with one INSERT … ON CONFLICT and one DELETE, and
   * their events with one outbox statement (a silent compute reads no addresses and publishes
   * nothing). Contacts outside the difference were consistent at its snapshot; any later change to
   * one of them re-evaluates it in real time. At the end the segment is `materialized` and its
   * members are as of `now`, unless its filter changed meanwhile (the change's own compute then does
   * it). Returns the entries, exits and the members after.
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
      const ctx = await ProjectContext.load(runner.manager, projectId, this.segments);
      const segment = ctx.segments.get(segmentId);
      const filter = segment && ctx.filterOf(segment);
      if (!segment || !filter || segment.type !== 'DYNAMIC') {
        await runner.commitTransaction();
        return undefined;
      }
      version = segment.version;
      declared = true;
      await this.evaluation.declareDifference(runner.manager, ctx, segmentId, filter, now);
      await runner.commitTransaction();
      for (let from = 0; ; from += COMPUTE_BATCH) {
        const batch = await this.evaluation.differenceBatch(runner.manager, from, from + COMPUTE_BATCH);
        if (!batch) break;
        await runner.startTransaction();
        try {
          const m = runner.manager;
          await this.evaluation.shareLockDifference(m, projectId, batch);
          const batchCtx = await ProjectContext.load(m, projectId, this.segments);
          const current = batchCtx.segments.get(segmentId);
          if (!current || current.type !== 'DYNAMIC') {
            await runner.commitTransaction();
            return undefined;
          }
          const r = await this.engine.reconcile(m, batchCtx, current, { difference: batch }, { ...opts, now });
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
      if (declared) await this.evaluation.dropDifference(runner.manager).catch(() => undefined);
      await runner.release();
    }
    await this.segments.markMaterialized(this.db.manager, projectId, segmentId, version, now);
    const total = await this.recount(this.db.manager, projectId, segmentId);
    return { added, removed, total };
  }

  /**
   * Counts the stored members again and caches the count (the truth after a compute), under the
   * segment's row lock (`SegmentsStore.recount`): in the caller's transaction when one is active,
   * else in a transaction of its own.
   */
  async recount(m: EntityManager, projectId: string, segmentId: string): Promise<number> {
    return m.queryRunner?.isTransactionActive
      ? this.segments.recount(m, projectId, segmentId)
      : m.transaction((t) => this.segments.recount(t, projectId, segmentId));
  }

  /** Counts the live members of a dynamic segment (no writes). */
  async countLive(m: EntityManager, ctx: ProjectContext, segment: Segment, now = new Date()): Promise<number> {
    const filter = ctx.filterOf(segment);
    if (!filter) return 0;
    return this.evaluation.countMatching(m, ctx, filter, now);
  }
}
