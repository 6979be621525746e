import pg from 'pg';
import { bearer, eventually } from '@herald/testing';
import { newProject } from '../e2e/contacts-helpers.js';
import { startFaultHerald, type FaultHerald } from './herald.js';
import { LoadDriver } from './load.js';
import { errorRate, judge, recoveryMs, within } from './oracle.js';
import { recordRow, rowFrom } from './report.js';

/**
 * Scenario 8 of issue 44: the contacts service killed (−9) in the middle of a large CSV import
 * (FAULTS_IMPORT_ROWS, default 10,000 in the short profile, 50,000 in the long), under the steady
 * load, then started again: the import resumes and ends with exactly that many contacts, none twice;
 * the load loses nothing acknowledged. The row counts the import's rows with the load's requests.
 */
const ROWS = Number(process.env.FAULTS_IMPORT_ROWS ?? (process.env.FAULTS_PROFILE === 'long' ? 50_000 : 10_000));

interface ImportStatus {
  status: string;
  imported: number;
  progress: { processedRows: number };
}

describe('a crash during a large CSV import', () => {
  let herald: FaultHerald;
  let load: LoadDriver;

  beforeAll(async () => {
    herald = await startFaultHerald();
  }, 600_000);
  afterAll(async () => {
    await load?.stop();
    await herald?.stop();
  }, 120_000);

  it(`resumes after kill -9 of contacts and ends with exactly ${ROWS} contacts, none twice`, async () => {
    load = new LoadDriver({ url: herald.topology.url, key: herald.api.key, from: herald.from, tag: 'import' });
    load.start();
    const importer = await newProject(herald.topology.url);
    const csv = ['email,first_name,plan', ...Array.from({ length: ROWS }, (_, i) => `row${i}@example.com,N${i},free`)];
    const form = new FormData();
    form.append('file', new Blob([csv.join('\n')], { type: 'text/csv' }), 'big.csv');
    const started = await fetch(`${herald.topology.url}/contacts/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${importer.key}` }, // FormData sets the multipart content type
      body: form,
    });
    if (started.status !== 202)
      throw new Error(`POST /contacts/import answered ${started.status}: ${await started.text()}`);
    const { jobId } = (await started.json()) as { jobId: string };
    const status = async () =>
      (await (
        await fetch(`${herald.topology.url}/contacts/import/${jobId}`, { headers: bearer(importer.key) })
      ).json()) as ImportStatus;
    const midway = await eventually(
      async () => {
        const s = await status();
        return s.progress.processedRows >= ROWS / 10 ? s : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 20, message: 'the import never got a tenth of the way' },
    );
    expect(midway.status).toBe('queued'); // still running when the process dies

    const at = Date.now();
    await herald.topology.restart('contacts', 'SIGKILL');
    const readyAt = Date.now();
    const done = await eventually(
      async () => {
        const s = await status();
        return s.status === 'completed' || s.status === 'failed' ? s : undefined;
      },
      { timeoutMs: 300_000, intervalMs: 250, message: 'the import did not end after the restart' },
    );
    const completedAt = Date.now();
    await load.answeredSince(completedAt, 5 * load.rate);
    await load.stop();
    await herald.settle(load.ledger);

    const db = new pg.Client({ connectionString: herald.topology.db.url });
    await db.connect();
    const { rows } = await db
      .query<{ total: number; distinct: number }>(
        'SELECT count(*)::int AS total, count(DISTINCT lower(email))::int AS distinct FROM contacts.contacts WHERE project_id = $1',
        [importer.projectId],
      )
      .finally(() => db.end());
    const { total, distinct } = rows[0]!;
    const v = judge(within(load.ledger, at, Infinity), await herald.finalState());
    const http = recoveryMs(load.ledger, at);
    recordRow({
      ...rowFrom(
        `import crash (${ROWS} rows)`,
        { ...v, acknowledged: v.acknowledged + ROWS },
        {
          recoveryMs: http === null ? null : Math.max(http, readyAt - at),
          errorRate: errorRate(within(load.ledger, at, readyAt + 1000)),
        },
        {
          lost: ROWS - distinct,
          duplicated: total - distinct,
          note: [`import ${done.status} ${Math.round((completedAt - at) / 1000)} s after the kill`],
        },
      ),
    });
    expect({ status: done.status, total, distinct }).toEqual({ status: 'completed', total: ROWS, distinct: ROWS });
    expect({ lost: v.lost, stuck: v.stuck, duplicated: v.duplicated }).toEqual({ lost: [], stuck: [], duplicated: [] });
  }, 3_600_000);
});
