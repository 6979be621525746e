import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { campaignsSchema } from '../campaigns.module.js';
import { Campaign, type CampaignStatus } from './campaign.entity.js';
import { CampaignsStore } from './campaigns.store.js';

/** A scheduled campaign firing on PostgreSQL: only its current run, only once its time has passed by the database's clock. */
describe('CampaignsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new CampaignsStore();
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(campaignsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** A campaign in `status`, on run `sendSeq`, scheduled `inMs` from now. */
  const campaign = (status: CampaignStatus, inMs: number, sendSeq = 3) =>
    ds.getRepository(Campaign).save({
      id: `cmp_s${++n}`,
      projectId: 'prj',
      name: 'n',
      description: null,
      subject: 's',
      body: 'b',
      from: 'a@example.com',
      fromName: null,
      replyTo: null,
      audienceType: 'ALL' as const,
      segmentId: null,
      audienceFilter: null,
      templateId: null,
      status,
      scheduledAt: new Date(Date.now() + inMs),
      sendSeq,
      resolveCursor: null,
      resolved: false,
      startedAt: null,
      sentAt: null,
      cancelledAt: null,
    });
  const read = (id: string) => ds.getRepository(Campaign).findOneByOrFail({ id });

  it('a SCHEDULED campaign whose time has passed moves to SENDING for its current run, once: started now, a new version', async () => {
    const c = await campaign('SCHEDULED', -1000);
    expect(await ds.transaction((m) => store.fireScheduled(m, c.id, 3))).toBe(true);
    const fired = await read(c.id);
    expect(fired).toMatchObject({ status: 'SENDING', sendSeq: 3, version: c.version + 1 });
    expect(fired.startedAt).toBeInstanceOf(Date);
    expect(await ds.transaction((m) => store.fireScheduled(m, c.id, 3))).toBe(false);
  });

  it('never fires early, for a run that is not the current one, or a campaign not SCHEDULED', async () => {
    const early = await campaign('SCHEDULED', 60_000);
    const stale = await campaign('SCHEDULED', -1000);
    const cancelled = await campaign('CANCELLED', -1000);
    expect(await ds.transaction((m) => store.fireScheduled(m, early.id, 3))).toBe(false);
    expect(await ds.transaction((m) => store.fireScheduled(m, stale.id, 2))).toBe(false);
    expect(await ds.transaction((m) => store.fireScheduled(m, cancelled.id, 3))).toBe(false);
    expect((await Promise.all([early, stale, cancelled].map((c) => read(c.id)))).map((c) => c.status)).toEqual([
      'SCHEDULED',
      'SCHEDULED',
      'CANCELLED',
    ]);
  });
});
