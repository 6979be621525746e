import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { SEGMENTS_SETTINGS, type SegmentsSettings } from '../segments.settings.js';
import { ProjectContext } from './project-context.js';
import { SegmentCompute } from './segment-compute.js';
import { Segment } from './segment.entity.js';
import { SegmentsStore } from './segments.store.js';
import { SweepStateStore } from './sweep-state.store.js';

export const SWEEP_QUEUE = 'segments.sweep';
const MAX_ATTEMPTS = 100;
const log = createLogger('segments.sweep');

export const sweepJobId = (seq: number): string => `segsweep_${seq}`;

/**
 * The periodic sweep: conditions that change with time alone (`within`, `olderThan`,
 * `triggeredWithin`, counts in a window) are re-evaluated every SEGMENTS_SWEEP_INTERVAL_MS for the
 * dynamic segments that hold one, publishing entries and exits with reason `sweep` for those that
 * track membership. A dynamic segment whose members are not stored yet (one from before every
 * dynamic segment kept them, or one whose compute was cut off) is computed silently first.
 *
 * One durable chain of jobs (libs/jobs), like the domains checks: a link runs the sweep, then in one
 * transaction advances `sweep_state.seq` and enqueues the next link. Only the link carrying the
 * current number acts, so a link run twice or a duplicate started by another replica's repair does
 * nothing. At start, a replica starts the chain again when it has no queued or running link.
 */
@Injectable()
export class SegmentSweep implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    @InjectJobQueue(SEGMENTS) private readonly jobs: JobQueue,
    private readonly membership: SegmentCompute,
    private readonly segments: SegmentsStore,
    private readonly state: SweepStateStore,
    @Inject(SEGMENTS_SETTINGS) private readonly settings: SegmentsSettings,
  ) {}

  onModuleInit(): void {
    this.jobs.register(SWEEP_QUEUE, (ctx) => this.run(ctx));
  }

  async onApplicationBootstrap(): Promise<void> {
    const live = await this.jobs.liveValues(SWEEP_QUEUE, 'seq');
    if (live.size > 0) return;
    await this.db.transaction(async (m) => {
      const seq = await this.state.advance(m);
      await this.enqueue(m, seq, new Date(Date.now() + this.settings.SEGMENTS_SWEEP_INTERVAL_MS));
    });
    log.info('started the segments sweep chain');
  }

  async run({ job }: Pick<JobContext, 'job'>): Promise<void> {
    const seq = Number((job.payload as { seq: string }).seq);
    if ((await this.state.current(this.db.manager)) !== seq) return;
    await this.sweep();
    await this.db.transaction(async (m) => {
      if ((await this.state.lock(m)) !== seq) return;
      const next = await this.state.advance(m);
      await this.enqueue(m, next, new Date(Date.now() + this.settings.SEGMENTS_SWEEP_INTERVAL_MS));
      await this.jobs.forget(m, [sweepJobId(seq - 1)]);
    });
  }

  /**
   * One pass over every dynamic segment: those not stored yet are computed silently, those whose
   * filter depends on time are swept; a project's segments and field types are read once per pass.
   * Returns how many were swept.
   */
  async sweep(): Promise<number> {
    const dynamic = await this.db.getRepository(Segment).find({
      where: { type: 'DYNAMIC' },
      select: { id: true, projectId: true, materialized: true },
      order: { projectId: 'ASC', id: 'ASC' },
    });
    const byProject = new Map<string, typeof dynamic>();
    for (const s of dynamic) {
      const list = byProject.get(s.projectId);
      if (list) list.push(s);
      else byProject.set(s.projectId, [s]);
    }
    let swept = 0;
    for (const [projectId, segments] of byProject) {
      let ctx: ProjectContext;
      try {
        ctx = await ProjectContext.load(this.db.manager, projectId, this.segments);
      } catch (err) {
        log.error('could not load a project to sweep', { projectId, err: String(err) });
        continue;
      }
      for (const { id, materialized } of segments) {
        try {
          if (!materialized) {
            await this.membership.compute(projectId, id, { fire: false, reason: 'compute' });
            continue;
          }
          const s = ctx.segments.get(id);
          const filter = s && ctx.filterOf(s);
          if (!filter || !ctx.isTimeDependent(filter)) continue;
          await this.membership.compute(projectId, id, { fire: true, reason: 'sweep' });
          swept++;
        } catch (err) {
          log.error('could not sweep a segment', { segmentId: id, err: String(err) });
        }
      }
    }
    return swept;
  }

  private enqueue(m: EntityManager, seq: number, runAt: Date): Promise<string> {
    return this.jobs.enqueue(
      m,
      SWEEP_QUEUE,
      { seq: String(seq) },
      { id: sweepJobId(seq), runAt, maxAttempts: MAX_ATTEMPTS },
    );
  }
}
