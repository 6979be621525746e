import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { accountWithProject, bearer, freePort, ServiceProcess, testReport } from '@herald/testing';

/**
 * What a newcomer gets from `npm start` with no DATABASE_URL: an embedded PostgreSQL in the data
 * directory, migrations applied, ready within 30 s; a second start reuses the same data.
 */
describe('standalone start with embedded PostgreSQL', () => {
  let dataDir: string;
  let herald: ServiceProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-standalone-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    await herald?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('becomes ready on a fresh data directory (initdb, migrations) and keeps its data across a restart', async () => {
    const port = await freePort();
    const env = { HERALD_DATA_DIR: dataDir };
    herald = new ServiceProcess('standalone', port, env);
    await herald.start({ waitReady: false });
    const firstMs = await herald.waitReady(120_000);

    const headers = bearer((await accountWithProject(herald.url)).secretKey);
    const track = await fetch(`${herald.url}/v1/track`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'keep@example.com', event: 'kept' }),
    });
    expect(track.status).toBe(200);
    expect(await herald.stop()).toBe(0);

    herald = new ServiceProcess('standalone', port, env);
    await herald.start({ waitReady: false });
    const secondMs = await herald.waitReady(120_000);
    const stats = await (await fetch(`${herald.url}/events/stats`, { headers })).json();
    expect(stats).toMatchObject({ total: 1, events: [{ name: 'kept', count: 1 }] });
    testReport(`standalone cold start: first ${firstMs} ms (initdb + migrations), second ${secondMs} ms`);
  }, 300_000);
});
