import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createTestDatabase,
  distributedEnv,
  freePort,
  migrateApps,
  ServiceProcess,
  startKafka,
  startRedis,
  type KafkaBroker,
  type TestDatabase,
} from '@herald/testing';
import { csv, newProject, type ContactBody, type CursorPageBody, type ImportJobBody } from './contacts-helpers.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Uploads through the gateway of distributed mode: the gateway, contacts and sending as their own
 * processes. Multipart bodies stream through the gateway to the owning service unchanged, the
 * services' size limits still hold, and the gateway answers only once the upload was read.
 */
describe('uploads through the gateway (distributed)', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let redis: { url: string; stop(): Promise<void> };
  let uploadsDir: string;
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;

  beforeAll(async () => {
    [db, kafka, redis] = await Promise.all([createTestDatabase(), startKafka(), startRedis()]);
    uploadsDir = await mkdtemp(path.join(os.tmpdir(), 'herald-gateway-uploads-'));
    const env = distributedEnv(db.url, kafka.brokers);
    await migrateApps(['gateway', 'contacts', 'sending'], env);
    const gatewayPort = await freePort();
    const contacts = new ServiceProcess('contacts', await freePort(), env);
    const sending = new ServiceProcess('sending', await freePort(), {
      ...env,
      CONTACTS_URL: contacts.url,
      DOMAINS_URL: 'http://127.0.0.1:9', // no sender domain is checked by uploads
      APP_URL: `http://127.0.0.1:${gatewayPort}`,
      DKIM_ENCRYPTION_KEY: 'uploads-test-dkim-encryption-key-0123456789',
      LINK_SECRET: 'uploads-test-link-secret-0123456789abcdef',
      UPLOADS_DIR: uploadsDir,
    });
    processes.push(contacts, sending);
    await Promise.all([contacts.start(), sending.start()]);
    const nowhere = 'http://127.0.0.1:9';
    gateway = new ServiceProcess('gateway', gatewayPort, {
      ...env,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      CONTACTS_URL: contacts.url,
      SENDING_URL: sending.url,
      DOMAINS_URL: nowhere,
      CAMPAIGNS_URL: nowhere,
      SEGMENTS_URL: nowhere,
      WORKFLOWS_URL: nowhere,
      ANALYTICS_URL: nowhere,
      WEBHOOKS_URL: nowhere,
    });
    processes.push(gateway);
    await gateway.start();
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await kafka?.stop();
    await redis?.stop();
    await db?.drop();
    if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
  }, 60_000);

  it('streams a 5 MB CSV to contacts (POST /contacts/import) and the import completes', async () => {
    const api = await newProject(gateway.url);
    const header = 'email,pad\n';
    const pad = 'x'.repeat(200);
    const rows: string[] = [];
    let size = header.length;
    for (let i = 0; size < 5 * 1024 * 1024 - 300; i++) {
      const row = `person${i % 400}@upload.test,${pad}\n`;
      rows.push(row);
      size += row.length;
    }
    const file = header + rows.join('');
    expect(Buffer.byteLength(file)).toBeGreaterThan(5 * 1024 * 1024 - 300);
    expect(Buffer.byteLength(file)).toBeLessThanOrEqual(5 * 1024 * 1024);

    const started = await api.importCsv(file);
    expect(started.status).toBe(202);
    const job = await api.waitForJob<ImportJobBody>(`/contacts/import/${started.body.jobId}`);
    expect(job).toMatchObject({ status: 'completed', totalRows: rows.length, skipped: 0, errors: [] });
    expect((await api.get<CursorPageBody<ContactBody>>('/contacts')).body.total).toBe(400);
  }, 60_000);

  it("still enforces the service's limit: a CSV over 5 MB is refused with 413 and nothing is imported", async () => {
    const api = await newProject(gateway.url);
    const row = `someone@example.com,${'x'.repeat(200)}\n`;
    const big = `email,pad\n${row.repeat(Math.ceil((5 * 1024 * 1024) / row.length) + 10)}`;
    const res = await api.importCsv(big);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await api.get<CursorPageBody<ContactBody>>('/contacts')).body.total).toBe(0);
  }, 60_000);

  it('streams an image to sending (POST /uploads/image) and serves it back through the gateway', async () => {
    const api = await newProject(gateway.url);
    const upload = async (bytes: Uint8Array, name: string, type: string) => {
      const form = new FormData();
      form.append('file', new Blob([bytes], { type }), name);
      const res = await fetch(`${gateway.url}/uploads/image`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.key}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as { url?: string } };
    };
    const ok = await upload(PNG, 'logo.png', 'image/png');
    expect(ok.status).toBe(201);
    expect(ok.body.url!.startsWith(`${gateway.url}/uploads/files/`)).toBe(true);
    const served = await fetch(ok.body.url!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const disguised = await upload(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      'logo.png',
      'image/png',
    );
    expect(disguised.status).toBe(422);
  });

  it('answers an upload it refuses (no key) with 401 once the body is read, not with a broken pipe', async () => {
    const form = new FormData();
    form.append('file', new Blob([csv(['email'], ['a@b.test']).repeat(200_000)], { type: 'text/csv' }), 'big.csv');
    const res = await fetch(`${gateway.url}/contacts/import`, { method: 'POST', body: form });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBeDefined();
  });
});
