import type { DataSource, EntityManager } from 'typeorm';
import type { EvaluationStore } from './evaluation.store.js';
import type { MembershipEngine } from './membership-engine.js';
import { ProjectContext } from './project-context.js';
import { COMPUTE_BATCH, SegmentCompute } from './segment-compute.js';
import type { Segment } from './segment.entity.js';
import type { SegmentsStore } from './segments.store.js';

const filters = { operator: 'AND', conditions: [{ field: 'email', operator: 'contains', value: 'pro' }] };
const dynamic = (extra: Partial<Segment> = {}): Segment =>
  ({
    id: 'seg',
    projectId: 'p',
    name: 'seg',
    type: 'DYNAMIC',
    materialized: true,
    version: 7,
    filters,
    ...extra,
  }) as Segment;

/**
 * A compute over scripted stores and a recording connection: `contexts` answers each load of the
 * project in turn (the last one again after), `difference` its difference's batches (their contact ids, in id order), `reconciled` each
 * batch's entries and exits. `log` is what happened, in order.
 */
function setup(script: {
  contexts: (Segment | undefined)[];
  difference?: string[][];
  reconciled?: (contactIds: string[]) => { added: number; removed: number };
  total?: number;
}) {
  const log: string[] = [];
  let loads = 0;
  const batches = script.difference ?? [];
  const runner = {
    isTransactionActive: false,
    manager: { name: 'compute connection' } as unknown as EntityManager,
    connect: async () => void log.push('connect'),
    startTransaction: async () => {
      runner.isTransactionActive = true;
      log.push('begin');
    },
    commitTransaction: async () => {
      runner.isTransactionActive = false;
      log.push('commit');
    },
    rollbackTransaction: async () => {
      runner.isTransactionActive = false;
      log.push('rollback');
    },
    release: async () => void log.push('release'),
  };
  const own = { name: 'its own transaction' } as unknown as EntityManager;
  const outside = {
    queryRunner: undefined,
    transaction: async (run: (t: EntityManager) => Promise<unknown>) => {
      log.push('own transaction');
      return run(own);
    },
  } as unknown as EntityManager;
  const db = { createQueryRunner: () => runner, manager: outside } as unknown as DataSource;
  const segments = {
    ofProject: async (m: EntityManager) => {
      log.push(m === runner.manager ? 'load' : 'load elsewhere');
      const s = script.contexts[Math.min(loads++, script.contexts.length - 1)];
      return { segments: s ? [s] : [], fieldTypes: new Map() };
    },
    markMaterialized: async (m: EntityManager, ...args: unknown[]) =>
      void log.push(`materialized ${m === outside ? 'outside' : 'inside'} ${JSON.stringify(args)}`),
    recount: async (m: EntityManager) => {
      log.push(`recount in ${m === own ? 'its own transaction' : m === outside ? 'no transaction' : "the caller's"}`);
      return script.total ?? 0;
    },
  } as unknown as SegmentsStore;
  const evaluation = {
    declareDifference: async (_m: EntityManager, _ctx: ProjectContext, segmentId: string) =>
      void log.push(`declare ${segmentId}`),
    differenceBatch: async (_m: EntityManager, from: number, to: number) => {
      log.push(`batch ${from}-${to}`);
      const ids = batches[from / COMPUTE_BATCH];
      return ids && { from, to, first: ids[0], last: ids[ids.length - 1] };
    },
    shareLockDifference: async (_m: EntityManager, _p: string, b: { first: string; last: string }) =>
      void log.push(`share ${b.first}-${b.last}`),
    dropDifference: async () => void log.push('drop'),
    countMatching: async () => 3,
  } as unknown as EvaluationStore;
  const engine = {
    reconcile: async (
      _m: EntityManager,
      _ctx: ProjectContext,
      _s: Segment,
      scope: { difference: { first: string; last: string } },
      opts: { now: Date },
    ) => {
      const { first, last } = scope.difference;
      log.push(`reconcile ${first}-${last} at=${opts.now.toISOString()}`);
      return script.reconciled?.(batches.find((b) => b[0] === first)!) ?? { added: 0, removed: 0 };
    },
  } as unknown as MembershipEngine;
  return { compute: new SegmentCompute(db, segments, evaluation, engine), log, outside };
}

describe('SegmentCompute', () => {
  const opts = { fire: true, reason: 'compute' as const };

  it.each([
    ['an unknown segment', undefined],
    ['a static segment', dynamic({ type: 'STATIC', filters: null })],
  ])('%s is not computed: no difference, nothing marked, the connection released', async (_label, segment) => {
    const { compute, log } = setup({ contexts: [segment] });
    expect(await compute.compute('p', 'seg', opts)).toBeUndefined();
    expect(log).toEqual(['connect', 'begin', 'load', 'commit', 'release']);
  });

  it('reconciles the difference a batch at a time (its rows left in PostgreSQL), each batch share-locked then re-read on a fresh context, and sums its entries and exits', async () => {
    const { compute, log } = setup({
      contexts: [dynamic()],
      difference: [['a', 'b'], ['c']],
      reconciled: (ids) => ({ added: ids.length, removed: 1 }),
      total: 9,
    });
    expect(await compute.compute('p', 'seg', opts)).toEqual({ added: 3, removed: 2, total: 9 });
    const at = log.find((l) => l.startsWith('reconcile a-b'))!.split('at=')[1]!;
    const B = COMPUTE_BATCH;
    expect(log).toEqual([
      'connect',
      'begin',
      'load',
      'declare seg',
      'commit',
      `batch 0-${B}`,
      'begin',
      'share a-b',
      'load',
      `reconcile a-b at=${at}`,
      'commit',
      `batch ${B}-${2 * B}`,
      'begin',
      'share c-c',
      'load',
      `reconcile c-c at=${at}`,
      'commit',
      `batch ${2 * B}-${3 * B}`,
      'drop',
      'release',
      `materialized outside ["p","seg",7,"${at}"]`,
      'own transaction',
      'recount in its own transaction',
    ]);
  });

  it('marks the segment at the version its compute started from (a change saved meanwhile keeps it unmarked), as of the start', async () => {
    const { compute, log } = setup({
      contexts: [dynamic({ version: 3 }), dynamic({ version: 4 })],
      difference: [['a']],
      total: 5,
    });
    const before = Date.now();
    expect(await compute.compute('p', 'seg', opts)).toEqual({ added: 0, removed: 0, total: 5 });
    const marked = log.find((l) => l.startsWith('materialized'))!;
    const [, , version, at] = JSON.parse(marked.slice('materialized outside '.length)) as [
      string,
      string,
      number,
      string,
    ];
    expect(version).toBe(3);
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(at)).toBeLessThanOrEqual(Date.now());
  });

  it('a segment deleted or turned static between batches stops the compute: undefined, nothing marked', async () => {
    const { compute, log } = setup({ contexts: [dynamic(), undefined], difference: [['a']] });
    expect(await compute.compute('p', 'seg', opts)).toBeUndefined();
    expect(log.slice(-5)).toEqual(['share a-a', 'load', 'commit', 'drop', 'release']);
  });

  it('a failing batch is rolled back, the difference dropped and the connection released, and the compute fails with nothing marked', async () => {
    const { compute, log } = setup({
      contexts: [dynamic()],
      difference: [['a'], ['b']],
      reconciled: () => {
        throw new Error('deadlock');
      },
    });
    await expect(compute.compute('p', 'seg', opts)).rejects.toThrow('deadlock');
    expect(log.slice(-3)).toEqual(['rollback', 'drop', 'release']);
    expect(log.filter((l) => l.startsWith('reconcile'))).toHaveLength(1);
  });

  it("a recount runs in the caller's transaction when one is active, else in a transaction of its own", async () => {
    const { compute, log, outside } = setup({ contexts: [], total: 4 });
    const inTransaction = { queryRunner: { isTransactionActive: true } } as unknown as EntityManager;
    expect(await compute.recount(inTransaction, 'p', 'seg')).toBe(4);
    expect(await compute.recount(outside, 'p', 'seg')).toBe(4);
    expect(log).toEqual(["recount in the caller's", 'own transaction', 'recount in its own transaction']);
  });

  it("counts a dynamic segment's live members with its filter; a static one has none", async () => {
    const { compute } = setup({ contexts: [] });
    const ctx = new ProjectContext('p', new Map(), {});
    const m = {} as EntityManager;
    expect(await compute.countLive(m, ctx, dynamic())).toBe(3);
    expect(await compute.countLive(m, ctx, dynamic({ type: 'STATIC', filters: null }))).toBe(0);
  });
});
