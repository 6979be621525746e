import type { JobQueue } from '@herald/jobs';
import type { DataSource, EntityManager } from 'typeorm';
import type { BillingClock } from '../shared/billing-clock.js';
import { METERED_EMAIL_RETENTION_DAYS, MeteredEmailRetention } from './metered-email-retention.js';
import type { MeteredEmailStore } from './metered-email.store.js';

const NOW = new Date('2026-05-20T12:00:00Z');
const clock: BillingClock = { now: () => NOW, fromReal: (t) => t };

/** The retention over a store deleting `chunks` in turn and a job queue recording what it is given. */
function retentionWith(chunks: number[], enqueueError?: unknown) {
  const deletes: { before: Date; limit: number }[] = [];
  const enqueued: { queue: string; options: { id: string; runAt: Date } }[] = [];
  const handlers = new Map<string, () => Promise<void>>();
  const m = {} as EntityManager;
  const db = { manager: m, transaction: (fn: (tx: EntityManager) => unknown) => fn(m) } as unknown as DataSource;
  const jobs = {
    register: (queue: string, handler: () => Promise<void>) => void handlers.set(queue, handler),
    enqueue: async (_m: EntityManager, queue: string, _payload: unknown, options: { id: string; runAt: Date }) => {
      if (enqueueError) throw enqueueError;
      enqueued.push({ queue, options });
    },
  } as unknown as JobQueue;
  const store = {
    deleteSentBefore: async (_m: EntityManager, before: Date, limit: number) => {
      deletes.push({ before, limit });
      return chunks.shift() ?? 0;
    },
  } as unknown as MeteredEmailStore;
  const retention = new MeteredEmailRetention(db, jobs, clock, store);
  retention.onModuleInit();
  return { retention, run: () => handlers.get('metered-email-retention')!(), deletes, enqueued };
}

describe('MeteredEmailRetention: metered emails past 35 days', () => {
  it("deletes in chunks of 10,000 the emails sent 35 days before the billing clock's now, until a chunk comes back short, then schedules tomorrow", async () => {
    const { run, deletes, enqueued } = retentionWith([10_000, 10_000, 3]);
    await run();
    const before = new Date(NOW.getTime() - METERED_EMAIL_RETENTION_DAYS * 86_400_000);
    expect(deletes).toEqual([
      { before, limit: 10_000 },
      { before, limit: 10_000 },
      { before, limit: 10_000 },
    ]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(enqueued).toEqual([
      {
        queue: 'metered-email-retention',
        options: { id: `metered-email-retention-${tomorrow}`, runAt: new Date(`${tomorrow}T03:00:00.000Z`) },
      },
    ]);
  });

  it("the start schedules today's run, one per day whatever the replicas: one already scheduled is no error, another error is", async () => {
    const { retention, enqueued } = retentionWith([]);
    await retention.onApplicationBootstrap();
    expect(enqueued.map((e) => e.options.id)).toEqual([
      `metered-email-retention-${new Date().toISOString().slice(0, 10)}`,
    ]);
    await expect(
      retentionWith([], Object.assign(new Error('duplicate'), { code: '23505' })).retention.onApplicationBootstrap(),
    ).resolves.toBeUndefined();
    await expect(retentionWith([], new Error('down')).retention.onApplicationBootstrap()).rejects.toThrow('down');
  });
});
