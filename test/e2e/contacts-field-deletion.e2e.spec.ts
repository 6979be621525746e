import pg from 'pg';
import { e2eMode, eventually, startTopology, type Topology } from '@herald/testing';
import { newProject, type ContactBody, type CursorPageBody, type FieldBody } from './contacts-helpers.js';

/**
 * DELETE /contacts/fields/:field takes effect for every read as soon as it answers, while the
 * background job is still removing the key from the rows (issue 18, item 4). The job is held back
 * for real: a transaction of the test keeps a lock on the one row the job must change, so the reads
 * happen while the row still holds the key. Runs in the run's mode (HERALD_E2E_MODE: standalone or
 * distributed, libs/testing `startTopology`).
 */
describe(`deleting a field through the public API (${e2eMode()})`, () => {
  let herald: Topology;
  let pool: pg.Pool;

  beforeAll(async () => {
    herald = await startTopology({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    pool = new pg.Pool({ connectionString: herald.db.url, max: 3 });
  }, 240_000);

  afterAll(async () => {
    await pool?.end();
    await herald?.stop();
  }, 60_000);

  const stored = async (id: string): Promise<Record<string, unknown>> =>
    (await pool.query('SELECT data FROM contacts.contacts WHERE id = $1', [id])).rows[0].data;

  it('no read shows the key once the delete answered, though the job has not removed it yet; a value written afterwards is a new field the job keeps', async () => {
    const api = await newProject(herald.url);
    const ada = await api.upsert('ada@example.com', { plan: 'gold', city: 'Berlin' });
    const bob = await api.upsert('bob@example.com', { city: 'Rome' });

    // hold the job back: it must lock ada's row to remove the key, and waits for this transaction
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM contacts.contacts WHERE id = $1 FOR UPDATE', [ada.id]);
      const res = await api.delete('/contacts/fields/data.plan');
      expect(res.status).toBe(202);
      await eventually(
        async () =>
          (
            await pool.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE 'UPDATE%'`,
              [herald.db.name],
            )
          ).rows[0].n > 0,
        { message: 'the deletion job never reached the held row' },
      );
      expect(await stored(ada.id)).toEqual({ plan: 'gold', city: 'Berlin' });

      expect((await api.contact(ada.id)).data).toEqual({ city: 'Berlin' });
      const page = await api.get<CursorPageBody<ContactBody>>('/contacts');
      expect(page.body.data.map((c) => c.data)).toEqual([{ city: 'Rome' }, { city: 'Berlin' }]);
      expect((await api.fields()).filter((f: FieldBody) => f.isCustom)).toEqual([
        { field: 'data.city', type: 'string', isCustom: true, coverage: 1 },
      ]);
      expect((await api.get('/contacts/fields/data.plan/values')).status).toBe(404);

      // written after the delete: a new field, shown and counted (ada's stale value is not)
      const patched = await api.patch<ContactBody>(`/contacts/${bob.id}`, { data: { plan: 'pro' } });
      expect(patched.body.data).toEqual({ city: 'Rome', plan: 'pro' });
      expect(await api.field('data.plan')).toMatchObject({ coverage: 0.5 });
      expect((await api.get('/contacts/fields/data.plan/values')).body.data).toEqual([{ value: 'pro', count: 1 }]);
      expect((await api.contact(ada.id)).data).toEqual({ city: 'Berlin' });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }

    await eventually(async () => !('plan' in (await stored(ada.id))), {
      message: 'the job never removed data.plan from ada',
    });
    expect(await stored(bob.id)).toEqual({ city: 'Rome', plan: 'pro' });
    expect((await api.contact(bob.id)).data).toEqual({ city: 'Rome', plan: 'pro' });
    expect(await api.field('data.plan')).toMatchObject({ coverage: 0.5 });
  });
});
