import pg from 'pg';
import {
  e2eMode,
  eventually,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { newProject, type ContactBody, type CursorPageBody, type FieldBody } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

/**
 * DELETE /contacts/fields/:field takes effect for every read as soon as it answers, while the
 * background job is still removing the key from the rows (issue 18, item 4). The job is held back
 * for real: a transaction of the test keeps a lock on the one row the job must change, so the reads
 * happen while the row still holds the key. A send renders with the contact's data too: there the
 * job is held back before it starts (its queued row made to wait), since the send writes the row a
 * lock would hold. Runs in the run's mode (HERALD_E2E_MODE: standalone or distributed, libs/testing
 * `startTopology`); a DNS server and an SMTP sink of its own, so not the run's shared topology.
 */
describe(`deleting a field through the public API (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let pool: pg.Pool;
  let sending: SendingDb;

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url },
    });
    pool = new pg.Pool({ connectionString: herald.db.url, max: 3 });
    sending = new SendingDb(herald.db.url);
  }, 480_000); // eight processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await pool?.end();
    await sending?.end();
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop()]);
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

  it('a /v1/send while the job has not run renders the template without the deleted key', async () => {
    const api = await newProject(herald.url);
    const domain = `deletion-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    const to = 'ada@example.com';
    const ada = await api.upsert(to, { plan: 'gold', city: 'Berlin' });
    const template = await api.post<{ id: string }>('/templates', {
      name: 'Plan',
      subject: 'Plan: {{plan ?? "none"}}',
      body: '<p>Plan [{{plan}}] in {{city}}</p>',
      from: `news@${domain}`,
    });
    expect(template.status).toBe(201);

    // hold the job back before it starts: its queued row waits until the test releases it
    const holder = await pool.connect();
    try {
      await holder.query(
        `CREATE FUNCTION contacts.e2e_hold_field_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.queue = 'contacts.delete-field' AND NEW.payload->>'projectId' = '${api.projectId}' THEN
             NEW.run_after := 'infinity';
           END IF;
           RETURN NEW;
         END $$`,
      );
      await holder.query(
        `CREATE TRIGGER e2e_hold_field_deletion BEFORE INSERT ON contacts.jobs
           FOR EACH ROW EXECUTE FUNCTION contacts.e2e_hold_field_deletion()`,
      );
      const res = await api.delete<{ jobId: string }>('/contacts/fields/data.plan');
      expect(res.status).toBe(202);
      const job = async () =>
        (
          await pool.query(`SELECT state, run_after = 'infinity' AS held FROM contacts.jobs WHERE id = $1`, [
            res.body.jobId,
          ])
        ).rows[0];
      expect(await job()).toEqual({ state: 'queued', held: true });
      expect(await stored(ada.id)).toEqual({ plan: 'gold', city: 'Berlin' });

      const sent = await api.post('/v1/send', { to, template: template.body.id });
      expect(sent.status).toBe(200);
      const [message] = await smtp.waitFor((m) => m.to.includes(to));
      expect(message!.subject).toBe('Plan: none');
      expect(message!.html).toContain('<p>Plan [] in Berlin</p>');
      expect(message!.html).not.toContain('gold');
      expect(await job()).toEqual({ state: 'queued', held: true }); // the job never ran meanwhile
    } finally {
      await holder.query('DROP TRIGGER IF EXISTS e2e_hold_field_deletion ON contacts.jobs');
      await holder.query('DROP FUNCTION IF EXISTS contacts.e2e_hold_field_deletion()');
      await holder.query(
        `UPDATE contacts.jobs SET run_after = now() WHERE queue = 'contacts.delete-field' AND payload->>'projectId' = $1`,
        [api.projectId],
      );
      holder.release();
    }
    await eventually(async () => !('plan' in (await stored(ada.id))), {
      message: 'the job never removed data.plan from ada once released',
    });
  });
});
