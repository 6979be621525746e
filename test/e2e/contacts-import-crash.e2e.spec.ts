import {
  accountWithProject,
  bearer,
  createTestDatabase,
  eventually,
  freePort,
  ServiceProcess,
  type TestDatabase,
} from '@herald/testing';

interface ImportStatus {
  status: string;
  totalRows: number;
  imported: number;
  updated: number;
  skipped: number;
  progress: { processedRows: number };
}

/** A CSV import is a durable job: killing the process mid-import loses nothing and duplicates nothing. */
describe('CSV import survives a crash of the service', () => {
  let db: TestDatabase;
  let herald: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    herald = new ServiceProcess('standalone', await freePort(), {
      DATABASE_URL: db.url,
      JOB_LEASE_MS: '2000',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    await herald.start();
  }, 60_000);

  afterAll(async () => {
    await herald?.stop();
    await db?.drop();
  });

  it('completes after a restart when the process is killed mid-import, with every row applied exactly once', async () => {
    const { secretKey } = await accountWithProject(herald.url);
    const rows = 60_000;
    const lines = ['email,first_name,plan,age,vip'];
    let invalid = 0;
    for (let i = 1; i <= rows; i++) {
      if (i % 1000 === 0) {
        lines.push(`not-an-email-${i},X,free,1,no`);
        invalid++;
      } else
        lines.push(
          `person${i}@example.com,Name ${i},${i % 3 === 0 ? 'pro' : 'free'},${20 + (i % 50)},${i % 2 === 0 ? 'yes' : 'no'}`,
        );
    }
    const form = new FormData();
    form.append('file', new Blob([lines.join('\n')], { type: 'text/csv' }), 'people.csv');
    const started = await fetch(`${herald.url}/contacts/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}` },
      body: form,
    });
    expect(started.status).toBe(202);
    const { jobId } = (await started.json()) as { jobId: string };
    const status = async () =>
      (await (
        await fetch(`${herald.url}/contacts/import/${jobId}`, { headers: bearer(secretKey) })
      ).json()) as ImportStatus;

    const midway = await eventually(
      async () => {
        const s = await status();
        return s.progress.processedRows >= 3000 ? s : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 20, message: 'the import never started' },
    );
    expect(midway.status).toBe('queued'); // still running when we pull the plug
    await herald.kill();
    await herald.start();

    const done = await eventually(
      async () => {
        const s = await status();
        return s.status === 'completed' ? s : undefined;
      },
      { timeoutMs: 60_000, message: 'the import did not complete after the restart' },
    );
    expect(done).toMatchObject({
      totalRows: rows,
      imported: rows - invalid,
      updated: 0,
      skipped: invalid,
      progress: { processedRows: rows },
    });
    const list = (await (await fetch(`${herald.url}/contacts?limit=1`, { headers: bearer(secretKey) })).json()) as {
      total: number;
    };
    expect(list.total).toBe(rows - invalid);
  }, 120_000);
});
