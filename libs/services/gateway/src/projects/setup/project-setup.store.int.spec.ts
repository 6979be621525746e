import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { gatewaySchema } from '../../gateway-core.module.js';
import { ProjectSetup } from './project-setup.entity.js';
import { ProjectSetupStore } from './project-setup.store.js';

/** The projects' onboarding facts on PostgreSQL: the first contact's time is noted once per project. */
describe('ProjectSetupStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new ProjectSetupStore();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const firstContactAt = async (projectId: string) =>
    (await ds.getRepository(ProjectSetup).findOneBy({ projectId }))?.firstContactAt ?? null;

  it('notes several projects with one insert, and a project already noted keeps its first time', async () => {
    await store.noteFirstContacts(ds.manager, ['prj_a'], ['2026-01-01T00:00:00.000Z']);
    await store.noteFirstContacts(
      ds.manager,
      ['prj_a', 'prj_b'],
      ['2026-02-01T00:00:00.000Z', '2026-02-02T00:00:00.000Z'],
    );
    expect(await firstContactAt('prj_a')).toEqual(new Date('2026-01-01T00:00:00.000Z'));
    expect(await firstContactAt('prj_b')).toEqual(new Date('2026-02-02T00:00:00.000Z'));
    expect(await firstContactAt('prj_c')).toBeNull();
  });

  it('concurrent batches noting one project all succeed and leave one of their times', async () => {
    const times = Array.from({ length: 8 }, (_, i) => `2026-03-0${i + 1}T00:00:00.000Z`);
    await Promise.all(times.map((t) => ds.transaction((m) => store.noteFirstContacts(m, ['prj_race'], [t]))));
    expect(times.map((t) => new Date(t))).toContainEqual(await firstContactAt('prj_race'));
  });
});
