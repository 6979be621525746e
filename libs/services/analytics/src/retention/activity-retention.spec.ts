import type { JobQueue } from '@herald/jobs';
import type { DataSource, EntityManager } from 'typeorm';
import type { AnalyticsSettings } from '../analytics.settings.js';
import { MINUTE_COUNTS_KEPT_MS } from '../projection/activity-projector.js';
import { ActivityRetention, RETENTION_QUEUE, retentionJobId } from './activity-retention.js';
import type { RetentionStore } from './retention.store.js';

const DAY_MS = 86_400_000;
const settings = { ACTIVITY_RETENTION_DAYS: 90, ACTIVITY_RETENTION_INTERVAL_MS: 3_600_000 } as AnalyticsSettings;

interface World {
  /** The chain's number as read outside a transaction, and as locked inside one. */
  current?: number;
  locked?: number;
  projects?: string[];
  live?: string[];
}

/** ActivityRetention over a store and a queue answering from `world`; everything they were asked, in order. */
function retentionWith(world: World) {
  const log: unknown[][] = [];
  const tx = { tx: true } as unknown as EntityManager;
  const db = {
    manager: { outside: true },
    transaction: async (work: (m: EntityManager) => unknown) => work(tx),
  } as unknown as DataSource;
  let seq = world.locked ?? world.current ?? 0;
  const store = {
    current: async () => world.current,
    lock: async (m: EntityManager) => (log.push(['lock', m === tx]), world.locked),
    advance: async (m: EntityManager) => (log.push(['advance', m === tx]), ++seq),
    projects: async () => world.projects ?? [],
    pruneItems: async (_m: EntityManager, projectId: string, cutoff: Date) => (
      log.push(['items', projectId, cutoff]),
      2
    ),
    pruneTrackedEmails: async (_m: EntityManager, cutoff: Date) => (log.push(['tracked', cutoff]), 3),
    pruneFinishedExecutions: async (_m: EntityManager, cutoff: Date) => (log.push(['executions', cutoff]), 4),
    pruneMinutes: async (_m: EntityManager, cutoff: Date) => (log.push(['minutes', cutoff]), 5),
  } as unknown as RetentionStore;
  const jobs = {
    liveValues: async () => new Set(world.live ?? []),
    enqueue: async (m: EntityManager, queue: string, payload: unknown, o: { id: string; runAt: Date }) => (
      log.push(['enqueue', m === tx, queue, payload, o.id]),
      o.id
    ),
    forget: async (m: EntityManager, ids: string[]) => void log.push(['forget', m === tx, ids]),
  } as unknown as JobQueue;
  return { retention: new ActivityRetention(db, jobs, settings, store), log };
}
const job = (seq: number) => ({ job: { payload: { seq: String(seq) } } }) as never;
const prunes = (log: unknown[][]) =>
  log.filter((l) => ['items', 'tracked', 'executions', 'minutes'].includes(l[0] as string));

describe('ActivityRetention: one chain of links prunes what is past retention', () => {
  it('prunes items per project, tracked emails and ended executions past ACTIVITY_RETENTION_DAYS, minute counts past two days; answers the rows deleted', async () => {
    const { retention, log } = retentionWith({ projects: ['prj_a', 'prj_b'] });
    const now = new Date('2026-06-01T10:00:00.000Z');
    const cutoff = new Date(now.getTime() - 90 * DAY_MS);
    expect(await retention.prune(now)).toBe(2 + 2 + 3 + 4 + 5);
    expect(log).toEqual([
      ['items', 'prj_a', cutoff],
      ['items', 'prj_b', cutoff],
      ['tracked', cutoff],
      ['executions', cutoff],
      ['minutes', new Date(now.getTime() - MINUTE_COUNTS_KEPT_MS)],
    ]);
  });

  it('the current link prunes, then, its number still current under lock, advances the chain, enqueues the next link and forgets the one before', async () => {
    const { retention, log } = retentionWith({ current: 7, locked: 7 });
    await retention.run(job(7));
    expect(prunes(log)).toHaveLength(3);
    expect(log.slice(-4)).toEqual([
      ['lock', true],
      ['advance', true],
      ['enqueue', true, RETENTION_QUEUE, { seq: '8' }, retentionJobId(8)],
      ['forget', true, [retentionJobId(6)]],
    ]);
  });

  it('a link that is not the current one (run twice, or of a duplicate chain) does nothing', async () => {
    for (const world of [{ current: 8 }, { current: undefined }]) {
      const { retention, log } = retentionWith(world);
      await retention.run(job(7));
      expect(log).toEqual([]);
    }
  });

  it('a link overtaken while it pruned prunes but neither advances nor enqueues', async () => {
    const { retention, log } = retentionWith({ current: 7, locked: 8 });
    await retention.run(job(7));
    expect(log.at(-1)).toEqual(['lock', true]);
    expect(log.filter((l) => l[0] === 'advance' || l[0] === 'enqueue')).toEqual([]);
  });

  it('at start, the chain starts again only when no link is queued or running', async () => {
    const idle = retentionWith({ current: 3 });
    await idle.retention.onApplicationBootstrap();
    expect(idle.log).toEqual([
      ['advance', true],
      ['enqueue', true, RETENTION_QUEUE, { seq: '4' }, retentionJobId(4)],
    ]);
    const busy = retentionWith({ current: 3, live: ['3'] });
    await busy.retention.onApplicationBootstrap();
    expect(busy.log).toEqual([]);
  });
});
