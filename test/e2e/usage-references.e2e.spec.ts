import { ResourceReferencesChanged, type ResourceReference } from '@herald/contracts';
import { outboxChannel } from '@herald/messaging';
import { e2eMode, eventually, startTopology, type Topology } from '@herald/testing';
import pg from 'pg';
import { newProject } from './contacts-helpers.js';

/**
 * The usage routes answer from the references other services publish (`resource.references.changed`,
 * docs/adr/0011-usage-references.md). This test is the producer itself: it commits the event into the
 * segments, campaigns and workflows services' outboxes, as their use cases do (`publishReferences`),
 * and the running Herald relays it on its bus (standalone) or over Kafka (distributed). So the owners'
 * side (the three routes, project isolation, a newer revision replacing an older one) is proven
 * independently of those services' rules; their own publishing is covered by segments.e2e, campaigns.e2e and
 * workflows.e2e. The mode is the run's: HERALD_E2E_MODE (libs/testing `startTopology`).
 */
describe(`usage routes fed by published references (${e2eMode()})`, () => {
  let herald: Topology;
  let pool: pg.Pool;
  let owner: string;

  beforeAll(async () => {
    herald = await startTopology();
    pool = new pg.Pool({ connectionString: herald.db.url, max: 2 });
    owner = (await newProject(herald.url)).cookie;
  }, 240_000);

  afterAll(async () => {
    await pool?.end();
    await herald?.stop();
  }, 60_000);

  /** What a segments/campaigns/workflows use case does: the event in its own outbox, committed. */
  async function publishAs(
    service: 'segments' | 'campaigns' | 'workflows',
    projectId: string,
    resource: { id: string; name: string; revision: number },
    references: ResourceReference[],
  ): Promise<void> {
    const kind = ({ segments: 'segment', campaigns: 'campaign', workflows: 'workflow' } as const)[service];
    const event = ResourceReferencesChanged.create({
      projectId,
      source: service,
      payload: {
        resourceKind: kind,
        resourceId: resource.id,
        resourceName: resource.name,
        revision: resource.revision,
        references,
      },
    });
    await pool.query(
      `WITH ins AS (INSERT INTO "${service}".outbox (event_id, topic, message_key, envelope) VALUES ($1, $2, $3, $4) RETURNING 1)
       SELECT pg_notify($5, count(*)::text) FROM ins`,
      [event.eventId, event.type, event.key, JSON.stringify(event), outboxChannel(service)],
    );
  }

  it('GET /contacts/fields/:field/usage, /events/:name/usage and /templates/:id/usage list the resources that reference them, and stop once a resource drops the reference', async () => {
    const api = await newProject(herald.url, owner);
    await api.upsert('ada@example.com', { plan: 'gold' });
    const template = await api.post<{ id: string }>('/templates', {
      name: 'Welcome',
      subject: 'Hi {{email}}',
      body: '<p>Hello</p>',
    });
    expect(template.status).toBe(201);

    await publishAs('segments', api.projectId, { id: 'seg_pro', name: 'Pro users', revision: 1 }, [
      { kind: 'field', key: 'data.plan' },
      { kind: 'event', key: 'signed-up' },
    ]);
    await publishAs('campaigns', api.projectId, { id: 'cmp_launch', name: 'Launch', revision: 1 }, [
      { kind: 'template', key: template.body.id },
      { kind: 'segment', key: 'seg_pro' },
    ]);
    await publishAs('workflows', api.projectId, { id: 'wf_onboard', name: 'Onboarding', revision: 1 }, [
      { kind: 'event', key: 'signed-up' },
      { kind: 'template', key: template.body.id, at: 'step_2' },
    ]);

    await eventually(
      async () => {
        const templateUsage = (await api.get(`/templates/${template.body.id}/usage`)).body;
        return (
          templateUsage.workflows?.length === 1 &&
          templateUsage.campaigns?.length === 1 &&
          (await api.get('/events/signed-up/usage')).body.workflows?.length === 1 &&
          (await api.get('/contacts/fields/data.plan/usage')).body.segments?.length === 1
        );
      },
      { timeoutMs: 15_000, intervalMs: 50, message: 'the references never reached contacts and sending' },
    );
    expect((await api.get('/contacts/fields/data.plan/usage')).body).toEqual({
      segments: [{ id: 'seg_pro', name: 'Pro users' }],
      campaigns: [],
      workflows: [],
    });
    expect((await api.get('/events/signed-up/usage')).body).toEqual({
      segments: [{ id: 'seg_pro', name: 'Pro users' }],
      campaigns: [],
      workflows: [{ id: 'wf_onboard', name: 'Onboarding' }],
    });
    expect((await api.get(`/templates/${template.body.id}/usage`)).body).toEqual({
      campaigns: [{ id: 'cmp_launch', name: 'Launch' }],
      workflows: [{ id: 'wf_onboard', name: 'Onboarding', stepId: 'step_2' }],
    });
    // another project sees none of it
    const other = await newProject(herald.url, owner);
    await other.upsert('bob@example.com', { plan: 'free' });
    expect((await other.get('/contacts/fields/data.plan/usage')).body).toEqual({
      segments: [],
      campaigns: [],
      workflows: [],
    });

    // the segment no longer filters on the field (a newer revision)
    await publishAs('segments', api.projectId, { id: 'seg_pro', name: 'Pro users', revision: 2 }, [
      { kind: 'event', key: 'signed-up' },
    ]);
    await eventually(async () => (await api.get('/contacts/fields/data.plan/usage')).body.segments?.length === 0, {
      timeoutMs: 15_000,
      intervalMs: 50,
      message: 'the newer revision never replaced the older one',
    });
  });
});
