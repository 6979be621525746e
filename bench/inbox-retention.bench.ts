/**
 * The inbox stays bounded under a steady stream of events: `npm run bench -- inbox-retention`.
 *
 * BENCH_EVENTS (1 000 000) events go through a consumer's own inbox path, `EventProcessor.processBatch`
 * (one transaction per batch: the multi-row inbox insert, then the handlers, here one that does
 * nothing), BENCH_BATCH (500) events a batch of one topic as a Kafka `eachBatch` delivers them, on
 * BENCH_STREAMS (2) concurrent streams, straight from memory (no Kafka: the broker adds nothing to
 * the inbox's rows, and the mock broker would cap the rate well below PostgreSQL's). Meanwhile the
 * service's pruner (`Retention`, the same task every service registers) runs every
 * BENCH_INTERVAL_MS (1 000) with an inbox retention of BENCH_RETENTION_MS (3 000) and batches of
 * BENCH_PRUNE_BATCH (5 000). Every 250 ms the inbox is counted (`count(*)`). On a server with
 * autovacuum off, a VACUUM of the inbox after each round stands in for it (BENCH_VACUUM=0: none), so
 * the table's bytes show what autovacuum keeps them to.
 *
 * Bound: the inbox holds what was applied in the last retention plus one interval (the entries
 * that come of age between two rounds) plus a round's own duration; the bench prints the most
 * events applied in any such window beside the largest count, and fails when the count exceeds it.
 */
import { v7 as uuidv7 } from 'uuid';
import { configureLogging, DEFAULT_RETENTION } from '@herald/core';
import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventProcessor, messagingEntities, messagingRetentionTasks, Outbox } from '@herald/messaging';
import { createServiceDataSource, Retention, type RetentionTask } from '@herald/persistence';
import { benchDatabase, machineBusy, num, printTable } from './support.js';
import { target } from './targets.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 2);
const RETENTION_MS = Number(process.env.BENCH_RETENTION_MS ?? 3000);
const INTERVAL_MS = Number(process.env.BENCH_INTERVAL_MS ?? 1000);
const PRUNE_BATCH = Number(process.env.BENCH_PRUNE_BATCH ?? 5000);
const SERVICE = 'inboxbench';

configureLogging(process.env.LOG_LEVEL ?? 'warn'); // the pruner's line per round would bury the figures
const db = await benchDatabase('inbox_retention');
try {
  const idleBusy = await machineBusy(2000);
  const ds = await createServiceDataSource(
    { service: SERVICE, entities: [...messagingEntities], migrations: [] },
    db.url,
    STREAMS + 3,
  ).initialize();
  await ds.query(`CREATE SCHEMA ${SERVICE}`);
  await ds.synchronize();

  const processor = new EventProcessor(SERVICE, ds, new Outbox(SERVICE, ds), {
    warn: (m, f) => console.warn(m, f),
    error: (m, f) => console.error(m, f),
  });
  const handlers = () => [{ batch: async () => undefined }];

  // the pruner every service runs, its statements timed
  const retention = new Retention(SERVICE, {
    ...DEFAULT_RETENTION,
    inboxMs: RETENTION_MS,
    intervalMs: INTERVAL_MS,
    batchSize: PRUNE_BATCH,
  });
  let pruned = 0;
  let pruneStatements = 0;
  let pruneMs = 0;
  let longestStatementMs = 0;
  for (const task of messagingRetentionTasks(ds, retention.retention).filter((t) => t.table === 'inbox')) {
    const timed: RetentionTask = {
      ...task,
      pruneBatch: async (limit) => {
        const t0 = performance.now();
        const n = await task.pruneBatch(limit);
        const took = performance.now() - t0;
        pruneMs += took;
        longestStatementMs = Math.max(longestStatementMs, took);
        pruneStatements++;
        pruned += n;
        return n;
      },
    };
    retention.register(timed);
  }

  // the inbox counted every 250 ms
  let applied = 0;
  let maxRows = 0;
  let maxRowsAtApplied = 0;
  let maxBytes = 0;
  let sampling = true;
  const timeline: { at: number; applied: number }[] = [];
  const sampler = (async () => {
    while (sampling) {
      const at = performance.now();
      const before = applied;
      const [{ n, bytes }] = await ds.query(
        `SELECT count(*)::int AS n, pg_total_relation_size('${SERVICE}.inbox') AS bytes FROM ${SERVICE}.inbox`,
      );
      timeline.push({ at, applied: before });
      if (n > maxRows) {
        maxRows = n;
        maxRowsAtApplied = before;
      }
      maxBytes = Math.max(maxBytes, Number(bytes));
      await new Promise((r) => setTimeout(r, 250));
    }
  })();

  const envelope = (): EventEnvelope => ({
    eventId: uuidv7(),
    type: Topics.ContactUpdated,
    version: 1,
    projectId: 'prj_bench',
    occurredAt: new Date().toISOString(),
    key: 'cnt_bench',
    source: 'bench',
    payload: {},
  });

  // each round timed: the inbox may hold what came of age during the longest one
  let longestRoundMs = 0;
  const round = retention.pruneOnce.bind(retention);
  // with autovacuum off on the server (the shared test server has it off), a VACUUM of the inbox after
  // each round stands in for it, so that the deleted rows' space is reused as it would be
  const [{ autovacuum }] = await ds.query(`SELECT current_setting('autovacuum') AS autovacuum`);
  const vacuumAfterRounds = autovacuum !== 'on' && process.env.BENCH_VACUUM !== '0';
  let vacuumMs = 0;
  retention.pruneOnce = async () => {
    const t0 = performance.now();
    try {
      return await round();
    } finally {
      longestRoundMs = Math.max(longestRoundMs, performance.now() - t0);
      if (vacuumAfterRounds) {
        const v0 = performance.now();
        await ds.query(`VACUUM ${SERVICE}.inbox`);
        vacuumMs += performance.now() - v0;
      }
    }
  };

  retention.start();
  const started = performance.now();
  let issued = 0;
  await Promise.all(
    Array.from({ length: STREAMS }, async () => {
      while (issued < EVENTS) {
        const n = Math.min(BATCH, EVENTS - issued);
        issued += n;
        const batch = Array.from({ length: n }, envelope);
        // trusted: the contract's existence is checked, not the (empty) payload; the inbox path is the same
        await processor.processBatch(batch, handlers, { trusted: true });
        applied += n;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const [{ n: inboxAfter }] = await ds.query(`SELECT count(*)::int AS n FROM ${SERVICE}.inbox`);
  // one more interval and round: what is left comes of age and goes
  await new Promise((r) => setTimeout(r, RETENTION_MS + INTERVAL_MS));
  await retention.pruneOnce();
  await retention.stop();
  sampling = false;
  await sampler;
  const [{ n: inboxEnd, bytes: bytesEnd }] = await ds.query(
    `SELECT count(*)::int AS n, pg_total_relation_size('${SERVICE}.inbox') AS bytes FROM ${SERVICE}.inbox`,
  );
  await ds.destroy();

  const rate = (applied / elapsedMs) * 1000;
  // the most events applied in any window of retention + interval + the longest round (+ a sample's spacing):
  // all the inbox may hold at once if the pruner keeps up
  const windowMs = RETENTION_MS + INTERVAL_MS + longestRoundMs + 250;
  let bound = 0;
  for (const s of timeline) {
    const from = timeline.findLast((e) => e.at <= s.at - windowMs) ?? { applied: 0 };
    bound = Math.max(bound, s.applied - from.applied);
  }
  console.log(
    `\ninbox-retention: ${num(EVENTS)} events, ${BATCH} a batch on ${STREAMS} streams; inbox retention ${RETENTION_MS} ms, ` +
      `pruned every ${INTERVAL_MS} ms in statements of ≤ ${PRUNE_BATCH} rows (machine busy before: ${idleBusy.toFixed(0)}%)\n`,
  );
  printTable([
    ['figure', 'value'],
    ['events applied', num(applied)],
    ['apply rate (events/s)', num(rate)],
    ['largest inbox seen (rows)', num(maxRows)],
    ['  … when applied was', num(maxRowsAtApplied)],
    [`bound: most applied in any ${(windowMs / 1000).toFixed(1)} s (retention + interval + longest round)`, num(bound)],
    [
      `largest inbox size (bytes${vacuumAfterRounds ? ', VACUUM after each round for autovacuum' : autovacuum === 'on' ? ', autovacuum on' : ', no vacuum'})`,
      num(maxBytes),
    ],
    ['inbox size at the end (bytes)', num(Number(bytesEnd))],
    ['inbox at the last event (rows)', num(inboxAfter)],
    ['inbox after one more retention (rows)', num(inboxEnd)],
    ['rows pruned', num(pruned)],
    ['prune statements', num(pruneStatements)],
    ['pruning rate (rows/s of statement time)', num((pruned / pruneMs) * 1000)],
    ['prune statement time, share of the run', `${((pruneMs / elapsedMs) * 100).toFixed(1)}%`],
    ['longest prune statement (ms)', longestStatementMs.toFixed(1)],
    ['longest prune round (ms)', longestRoundMs.toFixed(0)],
    ...(vacuumAfterRounds ? [['VACUUM time, share of the run', `${((vacuumMs / elapsedMs) * 100).toFixed(1)}%`]] : []),
  ]);
  const bounded = target({
    target: 'the inbox never holds more than the events applied in one retention + interval + round (issue 39)',
    measured: `at most ${num(maxRows)} rows`,
    raw: `bound ${num(bound)} rows`,
    invariant: true,
    met: maxRows <= bound,
  });
  console.log(`\nthe inbox stayed within its bound: ${bounded}`);
  if (maxRows > bound) {
    console.error(`the inbox outgrew its bound: ${num(maxRows)} rows > ${num(bound)}`);
    process.exitCode = 1;
  }
} finally {
  await db.close();
}
