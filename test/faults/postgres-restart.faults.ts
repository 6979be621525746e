import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@herald/persistence';
import { eventually } from '@herald/testing';
import { startFaultHerald, type FaultHerald } from './herald.js';
import { LoadDriver } from './load.js';
import { errorRate, judge, recoveryMs, within, type LedgerEntry } from './oracle.js';
import { recordRow, rowFrom } from './report.js';

/**
 * Scenario 3 of issue 44: PostgreSQL stopped for FAULTS_PG_OUTAGE_S (default 15 s) under the steady
 * load and started again on the same data and port (an embedded server of the scenario's own, so
 * that no other test's database goes down with it). Invariants: the services reconnect without a
 * restart; every answer during the outage comes within the driver's 10 s (never a hang) and a refusal
 * is a 503 with Retry-After; nothing acknowledged is lost; no email twice.
 */
const OUTAGE_S = Number(process.env.FAULTS_PG_OUTAGE_S ?? 15);

describe('PostgreSQL restarted under load', () => {
  let dir: string;
  let server: EmbeddedPostgresHandle;
  let herald: FaultHerald;
  let load: LoadDriver;
  const start = (port?: number) =>
    startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), database: 'postgres', maxConnections: 300, port });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'herald-faults-pg-'));
    await chmod(dir, 0o755);
    server = await start();
    const before = process.env.HERALD_TEST_DATABASE_URL;
    process.env.HERALD_TEST_DATABASE_URL = server.url;
    herald = await startFaultHerald().finally(() => {
      if (before === undefined) delete process.env.HERALD_TEST_DATABASE_URL;
      else process.env.HERALD_TEST_DATABASE_URL = before;
    });
  }, 600_000);
  afterAll(async () => {
    await load?.stop();
    await herald?.stop().catch(() => undefined);
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it(`answers 503 with Retry-After during a ${OUTAGE_S} s outage, reconnects, and loses nothing acknowledged`, async () => {
    load = new LoadDriver({ url: herald.topology.url, key: herald.api.key, from: herald.from, tag: 'pg' });
    load.start();
    await eventually(() => load.ledger.length >= 20, { timeoutMs: 60_000, message: 'the load never got going' });
    const at = Date.now();
    await server.stop();
    await load.answeredSince(at, OUTAGE_S * load.rate);
    const backAt = Date.now();
    server = await start(server.port);
    await eventually(
      async () => {
        const after = load.ledger.filter((e) => e.startedAt >= Date.now() - 3_000);
        return after.length >= 10 && after.every((e) => e.status === 200);
      },
      { timeoutMs: 120_000, intervalMs: 250, message: 'the load never came back to all 200 after PostgreSQL returned' },
    ).catch(() => undefined); // judged below: recovery none
    await load.stop();
    await herald.settle(load.ledger);
    const v = judge(load.ledger, await herald.finalState());
    const during = within(load.ledger, at, backAt);
    const hung = during.filter((e: LedgerEntry) => e.status === null);
    // a refusal during the outage is a 503 that says when to come back
    const unexpected = during.filter(
      (e) => e.status !== null && e.status >= 300 && !(e.status === 503 && e.retryAfter),
    );
    const answers = () => {
      const count: Record<string, number> = {};
      for (const e of unexpected) {
        const key = `${e.status}${e.retryAfter ? '' : ' without Retry-After'}`;
        count[key] = (count[key] ?? 0) + 1;
      }
      return count;
    };
    // every process came back by itself: none was restarted, each is ready again
    const notReady: string[] = [];
    for (const p of herald.topology.processes.values()) await p.waitReady(60_000).catch(() => notReady.push(p.app));
    const row = rowFrom(
      `PostgreSQL away ${Math.round((backAt - at) / 1000)} s`,
      v,
      { recoveryMs: recoveryMs(load.ledger, at), errorRate: errorRate(during) },
      {
        note: [
          ...(hung.length ? [`${hung.length} requests got no answer within 10 s`] : []),
          ...(unexpected.length
            ? [
                `${unexpected.length} answers neither 2xx nor 503 with Retry-After: ${Object.keys(answers()).join(', ')}`,
              ]
            : []),
          ...(notReady.length ? [`not ready again: ${notReady.join(', ')}`] : []),
        ],
      },
    );
    // the scenario's own invariants beside the oracle's: no hang, a 503 that says when, every process back by itself
    recordRow({ ...row, passed: row.passed && hung.length + unexpected.length + notReady.length === 0 });
    expect({ lost: v.lost, stuck: v.stuck, duplicated: v.duplicated }).toEqual({ lost: [], stuck: [], duplicated: [] });
    expect({ hung: hung.length, unexpected: answers(), notReady }).toEqual({ hung: 0, unexpected: {}, notReady: [] });
    expect(recoveryMs(load.ledger, at)).not.toBeNull();
  }, 3_600_000);
});
