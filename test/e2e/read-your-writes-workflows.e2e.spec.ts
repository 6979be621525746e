import { e2eMode, eventually, startTopology, type Topology } from '@herald/testing';
import { newProject, type ContactBody, type TestProjectApi } from './contacts-helpers.js';
import { buildWorkflow, execution, executions } from './workflows-helpers.js';

/** Write-then-run pairs, each repeated this many times in a row with no wait between the two. */
const ROUNDS = 100;

const condition = (field: string, value: unknown) => ({
  operator: 'AND',
  conditions: [{ field, operator: 'equals', value }],
});

/**
 * Read-your-writes in workflows (docs/consistency.md): a CONDITION reads the contact as written
 * just before its execution started, and as an UPDATE_CONTACT of the same execution left it; a
 * workflow created is at once in the usage of its event and fields (contacts' copy of references);
 * a workflow created and enabled just before a /v1/track is started by it. Executions run on their
 * own (timers, a job); the waits are for them to finish, as a user waits for an execution to end.
 */
describe(`read-your-writes: workflows (${e2eMode()})`, () => {
  let herald: Topology;
  let owner: string;

  beforeAll(async () => {
    herald = await startTopology();
    owner = (await newProject(herald.url)).cookie;
  }, 300_000);

  afterAll(async () => {
    await herald?.stop();
  }, 60_000);

  const project = () => newProject(herald.url, owner);

  async function created(api: TestProjectApi, email: string, data: Record<string, unknown>): Promise<ContactBody> {
    const res = await api.post<ContactBody>('/contacts', { email, data });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** The outcome of each CONDITION step of a finished execution, in order. */
  async function conditionsOf(api: TestProjectApi, workflowId: string, executionId: string): Promise<string[]> {
    const done = await eventually(
      async () => {
        const e = await execution(api, workflowId, executionId);
        return ['COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'].includes(e.status) ? e : undefined;
      },
      { timeoutMs: 60_000, message: `execution ${executionId} never finished` },
    );
    return (done.steps ?? []).filter((s) => s.type === 'CONDITION').map((s) => s.outcome ?? 'none');
  }

  it.concurrent(
    'a CONDITION reads the data a contact was given just before its execution started',
    async () => {
      const api = await project();
      const w = await buildWorkflow(api, {
        eventName: 'rw-condition',
        steps: [
          ['CONDITION', condition('data.plan', 'gold')],
          ['EXIT', { reason: 'gold' }],
          ['EXIT', { reason: 'other' }],
        ],
        edges: [
          [0, 1, 'yes'],
          [0, 2, 'no'],
        ],
      });
      const started: { id: string; plan: string }[] = [];
      for (let i = 1; i <= ROUNDS; i++) {
        const plan = i % 2 === 1 ? 'gold' : 'silver';
        const contact = await created(api, `w${i}@rw.test`, { plan: 'none' });
        expect((await api.patch(`/contacts/${contact.id}`, { data: { plan } })).status).toBe(200);
        const run = await api.post<{ id: string }>(`/workflows/${w.id}/executions`, { contactId: contact.id });
        expect(run.status).toBe(201);
        started.push({ id: run.body.id, plan });
      }
      for (const [i, { id, plan }] of started.entries())
        expect({ round: i + 1, conditions: await conditionsOf(api, w.id, id) }).toEqual({
          round: i + 1,
          conditions: [plan === 'gold' ? 'yes' : 'no'],
        });
    },
    600_000,
  );

  it.concurrent(
    'a CONDITION after an UPDATE_CONTACT of the same execution reads the updated data',
    async () => {
      const api = await project();
      const w = await buildWorkflow(api, {
        eventName: 'rw-update',
        steps: [
          ['UPDATE_CONTACT', { data: { stage: 'onboarded' } }],
          ['CONDITION', condition('data.stage', 'onboarded')],
          ['EXIT', { reason: 'updated' }],
          ['EXIT', { reason: 'stale' }],
        ],
        edges: [
          [0, 1],
          [1, 2, 'yes'],
          [1, 3, 'no'],
        ],
      });
      const started: string[] = [];
      for (let i = 1; i <= ROUNDS; i++) {
        const contact = await created(api, `u${i}@rw.test`, { stage: 'new' });
        const run = await api.post<{ id: string }>(`/workflows/${w.id}/executions`, { contactId: contact.id });
        expect(run.status).toBe(201);
        started.push(run.body.id);
      }
      for (const [i, id] of started.entries())
        expect({ round: i + 1, conditions: await conditionsOf(api, w.id, id) }).toEqual({
          round: i + 1,
          conditions: ['yes'],
        });
    },
    600_000,
  );

  it.concurrent(
    'a workflow created is at once in the usage of its trigger event and of the fields its conditions name',
    async () => {
      const api = await project();
      // the usage of a field is answered for fields the project has (a contact holds each)
      await created(
        api,
        'fields@rw.test',
        Object.fromEntries(Array.from({ length: ROUNDS }, (_, i) => [`wf${i + 1}`, 'x'])),
      );
      for (let i = 1; i <= ROUNDS; i++) {
        const w = await buildWorkflow(api, {
          eventName: `rw-usage-${i}`,
          draft: true,
          steps: [
            ['CONDITION', condition(`data.wf${i}`, 'x')],
            ['EXIT', { reason: 'done' }],
          ],
          edges: [[0, 1, 'yes']],
        });
        const event = await api.get<{ workflows: { id: string }[] }>(`/events/rw-usage-${i}/usage`);
        const field = await api.get<{ workflows: { id: string }[] }>(`/contacts/fields/data.wf${i}/usage`);
        expect({ round: i, event: event.body.workflows, field: field.body.workflows }).toEqual({
          round: i,
          event: [expect.objectContaining({ id: w.id })],
          field: [expect.objectContaining({ id: w.id })],
        });
      }
    },
    600_000,
  );

  it.concurrent(
    'a workflow created and enabled just before a /v1/track is started by it',
    async () => {
      const api = await project();
      const workflows: string[] = [];
      for (let i = 1; i <= ROUNDS; i++) {
        const w = await buildWorkflow(api, { eventName: `rw-started-${i}`, steps: [['EXIT', { reason: 'done' }]] });
        expect((await api.track({ email: `s${i}@rw.test`, event: `rw-started-${i}` })).status).toBe(200);
        workflows.push(w.id);
      }
      for (const [i, id] of workflows.entries()) {
        const runs = await eventually(
          async () => ((await executions(api, id)).length > 0 ? executions(api, id) : undefined),
          {
            timeoutMs: 60_000,
            message: `the workflow of round ${i + 1} was never started by its event`,
          },
        );
        expect({ round: i + 1, runs: runs.map((r) => [r.email, r.trigger]) }).toEqual({
          round: i + 1,
          runs: [[`s${i + 1}@rw.test`, `rw-started-${i + 1}`]],
        });
      }
    },
    600_000,
  );
});
