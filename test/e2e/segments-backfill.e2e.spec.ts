import { e2eMode, eventually, principalHeaders, startTopology, type Topology } from '@herald/testing';
import pg from 'pg';
import { newProject, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, SegmentsOutbox } from './segments-helpers.js';

/**
 * The read model's backfill from contacts (docs/segments.md, "Backfill"), in the run's mode
 * (HERALD_E2E_MODE, libs/testing `startTopology`; the internal route is the segments process's own,
 * never the gateway's): a project fed live (contacts created, changed, unsubscribed, deleted, events tracked) has its read
 * model snapshotted, emptied, rebuilt by `POST /internal/segments/backfill`, and compared: the rebuilt
 * read model equals the live one, and so do the tracked segment's members, without any entry or exit
 * published. Times: a contact's `createdAt`/`updatedAt` come from contacts' rows when rebuilt and from
 * the events' `occurredAt` when live (the same write, within a second); events' times are equal.
 */
describe(`segments read model backfill (${e2eMode()})`, () => {
  let herald: Topology;
  let sql: pg.Client;
  let outbox: SegmentsOutbox;
  let api: TestProjectApi;

  beforeAll(async () => {
    // the operator's script signs its service principal with the deployment's secret (the topology's)
    // exclusive: the backfill route is internal (not on the gateway), reached at the segments process
    herald = await startTopology({ exclusive: true, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    sql = new pg.Client({ connectionString: herald.db.url });
    await sql.connect();
    outbox = new SegmentsOutbox(herald.db.url);
    api = await newProject(herald.url);
  }, 240_000);

  afterAll(async () => {
    await outbox?.end();
    await sql?.end();
    await herald?.stop();
  }, 60_000);

  const snapshot = async (projectId: string) => {
    const contacts = await sql.query<{
      contact_id: string;
      subscribed: boolean;
      data: Record<string, unknown>;
      created_at: Date;
      updated_at: Date;
    }>(
      `SELECT contact_id, email, subscribed, data, created_at, updated_at FROM segments.segment_contacts
        WHERE project_id = $1 ORDER BY contact_id`,
      [projectId],
    );
    const events = await sql.query(
      `SELECT contact_id, name, occurred_at, event_record_id FROM segments.segment_contact_events
        WHERE project_id = $1 ORDER BY contact_id, occurred_at, name`,
      [projectId],
    );
    const members = await sql.query(
      `SELECT segment_id, contact_id FROM segments.segment_memberships WHERE project_id = $1 ORDER BY 1, 2`,
      [projectId],
    );
    const types = await sql.query(
      `SELECT field, type FROM segments.segment_field_types WHERE project_id = $1 ORDER BY field`,
      [projectId],
    );
    return {
      contacts: contacts.rows.map(({ created_at, updated_at, ...rest }) => rest),
      times: contacts.rows.map((r) => ({ created: r.created_at.getTime(), updated: r.updated_at.getTime() })),
      events: events.rows,
      members: members.rows,
      types: types.rows,
    };
  };

  /** A service principal (an operator's script), as internal routes require. */
  const serviceHeaders = (projectId: string) =>
    principalHeaders(projectId, undefined, { kind: 'service', service: 'ops', projectId });
  const internal = async (method: string, path: string) => {
    const res = await fetch(`${herald.processOf('segments').url}${path}`, {
      method,
      headers: serviceHeaders(api.projectId),
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('a rebuilt read model equals the live one, tracked members included, and publishes no entry or exit', async () => {
    const tracked = await createSegment(api, {
      name: 'Gold buyers',
      filters: {
        operator: 'AND',
        conditions: [
          { field: 'data.plan', operator: 'equals', value: 'gold' },
          { field: 'event.purchase', operator: 'triggered' },
        ],
      },
      trackMembership: true,
    });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const c = await api.upsert(`backfill-${i}@example.com`, {
        plan: i % 2 ? 'gold' : 'free',
        seats: i,
        since: '2026-01-0' + ((i % 9) + 1),
        vip: i % 3 === 0,
      });
      ids.push(c.id);
    }
    for (let i = 0; i < 12; i += 2) await api.track({ email: `backfill-${i + 1}@example.com`, event: 'purchase' });
    await api.track({ email: 'backfill-3@example.com', event: 'login' });
    await api.patch(`/contacts/${ids[4]}`, { data: { plan: 'gold' } });
    await api.patch(`/contacts/${ids[5]}`, { subscribed: false });
    await api.delete(`/contacts/${ids[7]}`);
    // the live read model has followed everything (11 contacts, 6 events, 5 tracked members, and both
    // PATCHes: their topics are not ordered against the deletion's, and change none of those counts)
    const live = await eventually(
      async () => {
        const s = await snapshot(api.projectId);
        const contact = (id: string) => s.contacts.find((c) => c.contact_id === id);
        const patched = contact(ids[4]!)?.data.plan === 'gold' && contact(ids[5]!)?.subscribed === false;
        return s.contacts.length === 11 && s.events.length === 6 && s.members.length === 5 && patched ? s : undefined;
      },
      { timeoutMs: 30_000, message: 'the live read model never followed the changes' },
    );
    const firedBefore = (await outbox.events(tracked.id)).length;

    await sql.query(`DELETE FROM segments.segment_contact_events WHERE project_id = $1`, [api.projectId]);
    await sql.query(`DELETE FROM segments.segment_contacts WHERE project_id = $1`, [api.projectId]);
    await sql.query(`DELETE FROM segments.segment_field_types WHERE project_id = $1`, [api.projectId]);
    expect((await snapshot(api.projectId)).contacts).toEqual([]);

    const started = await internal('POST', '/internal/segments/backfill');
    expect(started.status).toBe(202);
    const jobId = started.body.jobId as string;
    await eventually(
      async () => {
        const { body } = await internal('GET', `/internal/segments/backfill/${jobId}`);
        if (body.state === 'failed') throw new Error(`backfill failed: ${String(body.error)}`);
        return body.state === 'completed' ? body : undefined;
      },
      { timeoutMs: 30_000 },
    );

    const rebuilt = await snapshot(api.projectId);
    expect(rebuilt.contacts).toEqual(live.contacts);
    expect(rebuilt.events).toEqual(live.events);
    expect(rebuilt.members).toEqual(live.members);
    expect(rebuilt.types).toEqual(live.types);
    rebuilt.times.forEach((t, i) => {
      expect(Math.abs(t.created - live.times[i]!.created)).toBeLessThan(1000);
      expect(Math.abs(t.updated - live.times[i]!.updated)).toBeLessThan(1000);
    });
    expect((await outbox.events(tracked.id)).length).toBe(firedBefore);
  });

  it('a backfill run again over a live read model changes nothing (idempotent on event record ids)', async () => {
    const before = await snapshot(api.projectId);
    const started = await internal('POST', '/internal/segments/backfill');
    expect(started.status).toBe(202);
    await eventually(
      async () => {
        const { body } = await internal('GET', `/internal/segments/backfill/${started.body.jobId as string}`);
        return body.state === 'completed' ? body : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(await snapshot(api.projectId)).toEqual(before);
  });

  it("another project's backfill job is a 404", async () => {
    const other = await newProject(herald.url);
    const started = await internal('POST', '/internal/segments/backfill');
    expect(started.status).toBe(202);
    const res = await fetch(
      `${herald.processOf('segments').url}/internal/segments/backfill/${started.body.jobId as string}`,
      {
        headers: serviceHeaders(other.projectId),
      },
    );
    expect(res.status).toBe(404);
  });
});
