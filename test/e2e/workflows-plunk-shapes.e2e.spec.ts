import {
  e2eMode,
  eventually as eventuallyWithin,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { newProject, type TestProjectApi } from './contacts-helpers.js';
import { SendingDb } from './sending-helpers.js';
import {
  buildPlunkWorkflow,
  execution,
  executions,
  projectWithDomain,
  type ExecutionBody,
} from './workflows-helpers.js';

/** Eventual rules get 30 s: a loaded machine, and Kafka between the services in distributed mode. */
const eventually: typeof eventuallyWithin = (probe, options = {}) =>
  eventuallyWithin(probe, { timeoutMs: 30_000, ...options });

interface WorkflowBody {
  id: string;
  enabled: boolean;
  steps: { id: string; name: string; position: unknown; config: Record<string, unknown> }[];
  transitions: { fromStepId: string; toStepId: string; branch: string | null }[];
  problems: { stepId?: string; code: string; message: string }[];
}

/**
 * Workflows written with Plunk's shapes (issue 37, items 4 and 5; docs/workflows.md, "Plunk's
 * shapes" and "Graph rules"): canvas positions, the single and multi-branch CONDITION, UPDATE_CONTACT
 * `updates`/`subscriptionAction`, transitions tagged `condition.branch` / `fallback`, a SEND_EMAIL's
 * templateId beside its config and its `recipient`, a DELAY of a fraction of hours, a
 * WAIT_FOR_EVENT without a timeout; and enabling as sent (the graph's problems reported, an execution
 * without a way on ending COMPLETED). Through the gateway, /v1/track as the trigger, mail into a
 * loopback SMTP sink. Runs in the run's mode (HERALD_E2E_MODE).
 */
describe(`workflows written with Plunk's shapes, enabled as sent (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;
  let owner: string;

  const project = () => projectWithDomain(herald.url, owner, dns, sending);
  const template = async (api: TestProjectApi & { from: string }, subject: string) =>
    (
      await api.post<{ id: string }>('/templates', {
        name: subject,
        subject,
        body: `<p>${subject}</p>`,
        from: api.from,
        type: 'transactional',
      })
    ).body.id;
  const mailTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
  const finished = (api: TestProjectApi, workflowId: string, email: string, status: string) =>
    eventually(async () => (await executions(api, workflowId, status)).find((e) => e.email === email), {
      message: `${email}'s execution never became ${status}`,
    });

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      exclusive: true,
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url },
    });
    sending = new SendingDb(herald.db.url);
    owner = (await newProject(herald.url)).cookie;
  }, 600_000);

  afterAll(async () => {
    await sending?.end();
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  it("a workflow built entirely with Plunk's shapes is accepted, enabled, triggered by /v1/track, and each contact runs the branch its event and data choose", async () => {
    const api = await project();
    const pro = await template(api, 'Pro welcome');
    const confirmed = await template(api, 'Thanks for confirming');
    await api.upsert('fr@example.com', { country: 'FR' });
    await api.upsert('de@example.com', { country: 'DE' });
    const at = (x: number, y: number) => ({ x, y });
    const w = await buildPlunkWorkflow(api, {
      eventName: 'plunk-signup',
      steps: {
        plan: {
          type: 'CONDITION',
          name: 'Pro plan?',
          position: at(250, 100),
          config: { field: 'event.plan', operator: 'equals', value: 'pro' },
        },
        welcome: { type: 'SEND_EMAIL', name: 'Welcome pro', position: at(100, 250), config: {}, templateId: pro },
        country: {
          type: 'CONDITION',
          name: 'Country',
          position: at(400, 250),
          config: {
            mode: 'multi',
            field: 'contact.data.country',
            branches: [
              { id: 'branch-fr', name: 'France', operator: 'equals', value: 'FR' },
              { id: 'branch-de', name: 'Germany', operator: 'equals', value: 'DE' },
            ],
          },
        },
        french: {
          type: 'UPDATE_CONTACT',
          name: 'Locale fr',
          position: at(300, 400),
          config: { updates: { locale: 'fr' }, subscriptionAction: 'none' },
        },
        german: {
          type: 'UPDATE_CONTACT',
          name: 'Unsubscribe',
          position: at(400, 400),
          config: { updates: {}, subscriptionAction: 'unsubscribe' },
        },
        wait: {
          type: 'WAIT_FOR_EVENT',
          name: 'Confirmed?',
          position: at(500, 400),
          config: { eventName: 'plunk-confirmed', timeout: 8 },
        },
        thanks: { type: 'SEND_EMAIL', name: 'Thanks', position: at(450, 550), config: { templateId: confirmed } },
        late: {
          type: 'UPDATE_CONTACT',
          name: 'Timed out',
          position: at(550, 550),
          config: { updates: { confirmation: 'timed out' } },
        },
      },
      transitions: [
        ['plan', 'welcome', { branch: 'yes' }],
        ['plan', 'country', { branch: 'no' }],
        ['country', 'french', { branch: 'branch-fr' }],
        ['country', 'german', { branch: 'branch-de' }],
        ['country', 'wait', { branch: 'default' }],
        ['wait', 'thanks'],
        ['wait', 'late', { fallback: true }],
      ],
    });

    const enabled = await api.patch<WorkflowBody>(`/workflows/${w.id}`, { enabled: true });
    expect([enabled.status, enabled.body.enabled, enabled.body.problems]).toEqual([200, true, []]);
    const saved = (await api.get<WorkflowBody>(`/workflows/${w.id}`)).body;
    const byId = new Map(saved.steps.map((s) => [s.id, s]));
    expect(byId.get(w.ids.plan)!.position).toEqual({ x: 250, y: 100 });
    expect(byId.get(w.ids.welcome)!.config).toEqual({ templateId: pro });
    expect(byId.get(w.ids.german)!.config).toEqual({ subscribed: false });
    const keyOf = new Map(Object.entries(w.ids).map(([k, id]) => [id, k]));
    expect(
      saved.transitions.map((t) => `${keyOf.get(t.fromStepId)} ${t.branch} → ${keyOf.get(t.toStepId)}`).sort(),
    ).toEqual([
      'country branch-de → german',
      'country branch-fr → french',
      'country default → wait',
      'plan no → country',
      'plan yes → welcome',
      'wait event → thanks',
      'wait timeout → late',
    ]);

    for (const [email, plan] of [
      ['pro@example.com', 'pro'],
      ['fr@example.com', 'free'],
      ['de@example.com', 'free'],
      ['waits@example.com', 'free'],
      ['late@example.com', 'free'],
    ])
      expect((await api.track({ email, event: 'plunk-signup', data: { plan } })).status).toBe(200);

    // yes: the template given beside the config
    await eventually(() => mailTo('pro@example.com').length === 1);
    expect(mailTo('pro@example.com')[0]!.subject).toBe('Pro welcome');
    // no → the multi-branch CONDITION on contact.data.country: updates, subscriptionAction
    const fr = await finished(api, w.id, 'fr@example.com', 'COMPLETED');
    expect((await api.contact(fr.contactId)).data).toMatchObject({ country: 'FR', locale: 'fr' });
    const de = await finished(api, w.id, 'de@example.com', 'COMPLETED');
    expect((await api.contact(de.contactId)).subscribed).toBe(false);
    const frSteps = (await execution(api, w.id, fr.id)).steps!;
    expect(frSteps.map((s) => [s.type, s.outcome])).toEqual([
      ['CONDITION', 'no'],
      ['CONDITION', 'branch-fr'],
      ['UPDATE_CONTACT', 'updated'],
    ]);
    // default → WAIT_FOR_EVENT: the untagged transition is its event branch, {fallback: true} its timeout
    await finished(api, w.id, 'waits@example.com', 'WAITING');
    expect((await api.track({ email: 'waits@example.com', event: 'plunk-confirmed' })).status).toBe(200);
    await eventually(() => mailTo('waits@example.com').length === 1);
    expect(mailTo('waits@example.com')[0]!.subject).toBe('Thanks for confirming');
    const late = await finished(api, w.id, 'late@example.com', 'COMPLETED');
    expect((await api.contact(late.contactId)).data).toMatchObject({ confirmation: 'timed out' });
    expect(mailTo('late@example.com')).toEqual([]);

    // the dry run follows the same branches as the runtime
    const dry = await api.post(`/workflows/${w.id}/simulate`, {
      contact: { email: 'dry@example.com', data: { country: 'DE' } },
      event: { name: 'plunk-signup', data: { plan: 'free' } },
    });
    expect(dry.status).toBe(200);
    expect(dry.body.path.map((p: { stepId: string; outcome: string }) => [p.stepId, p.outcome])).toEqual([
      [w.ids.plan, 'no'],
      [w.ids.country, 'branch-de'],
      [w.ids.german, 'updated'],
    ]);
    expect(dry.body.contactUpdates).toEqual([{ stepId: w.ids.german, subscribed: false }]);
  });

  it("a step's position is answered in the shape it was written: canvas coordinates keep the step's order (the entry step is chosen by order), an integer replaces them", async () => {
    const api = await project();
    const w = await buildPlunkWorkflow(api, {
      eventName: 'plunk-positions',
      steps: {
        first: { type: 'DELAY', name: 'first', position: { x: 900, y: 900 }, config: { amount: 1, unit: 'hours' } },
        second: { type: 'EXIT', name: 'second', position: { x: 0, y: 0 }, config: {} },
      },
    });
    const path = async () =>
      (await api.post(`/workflows/${w.id}/simulate`, { contact: { email: 'p@example.com' } })).body.path.map(
        (p: { stepId: string }) => p.stepId,
      );
    // no transition: both are entries; the first placed has the lower order whatever its coordinates
    expect(await path()).toEqual([w.ids.first]);
    const moved = await api.patch(`/workflows/${w.id}/steps/${w.ids.first}`, { position: { x: -5.5, y: 12.25 } });
    expect([moved.status, moved.body.position]).toEqual([200, { x: -5.5, y: 12.25 }]);
    expect(await path()).toEqual([w.ids.first]);
    const ordered = await api.patch(`/workflows/${w.id}/steps/${w.ids.first}`, { position: 7 });
    expect([ordered.status, ordered.body.position]).toEqual([200, 7]);
    expect(await path()).toEqual([w.ids.second]);
    const positions = (await api.get<WorkflowBody>(`/workflows/${w.id}`)).body.steps.map((s) => [s.id, s.position]);
    expect(positions).toEqual([
      [w.ids.second, { x: 0, y: 0 }],
      [w.ids.first, 7],
    ]);
    const bad = await api.patch(`/workflows/${w.id}/steps/${w.ids.first}`, { position: { x: 1, y: 'top' } });
    expect([bad.status, bad.body.error.errors.map((e: { field: string }) => e.field)]).toEqual([422, ['position']]);
  });

  it('enabling is as sent: an empty workflow without a trigger, and one with an open CONDITION branch and an unreachable step, are enabled; GET lists their problems', async () => {
    const api = await project();
    const empty = await buildPlunkWorkflow(api, { steps: {} });
    const on = await api.patch<WorkflowBody>(`/workflows/${empty.id}`, { enabled: true });
    expect([on.status, on.body.enabled, on.body.problems.map((p) => p.code)]).toEqual([
      200,
      true,
      ['WORKFLOW_NO_TRIGGER', 'WORKFLOW_EMPTY'],
    ]);
    expect((await api.get<WorkflowBody>(`/workflows/${empty.id}`)).body).toMatchObject({
      enabled: true,
      problems: on.body.problems,
    });

    const open = await buildPlunkWorkflow(api, {
      eventName: 'plunk-open',
      steps: {
        check: {
          type: 'CONDITION',
          name: 'VIP?',
          position: { x: 0, y: 0 },
          config: { field: 'data.vip', operator: 'equals', value: true },
        },
        vip: { type: 'UPDATE_CONTACT', name: 'mark', position: { x: 0, y: 100 }, config: { updates: { seen: 1 } } },
        stray: { type: 'EXIT', name: 'stray', position: { x: 200, y: 100 }, config: {} },
      },
      transitions: [['check', 'vip', { branch: 'yes' }]],
    });
    const enabled = await api.patch<WorkflowBody>(`/workflows/${open.id}`, { enabled: true });
    expect([enabled.status, enabled.body.enabled]).toEqual([200, true]);
    const problems = (await api.get<WorkflowBody>(`/workflows/${open.id}`)).body.problems;
    expect(problems.map((p) => [p.stepId, p.code])).toEqual([
      [open.ids.check, 'STEP_BRANCH_OPEN'],
      [open.ids.stray, 'STEP_UNREACHABLE'],
    ]);
    expect(problems[0]!.message).toMatch(/no branch/);
  });

  it("a CONDITION's new config cannot drop a branch a transition leaves by: 422 STEP_BRANCH_IN_USE naming the transition; once it is deleted the config is taken", async () => {
    const api = await project();
    const w = await buildPlunkWorkflow(api, {
      eventName: 'plunk-reshape',
      steps: {
        check: {
          type: 'CONDITION',
          name: 'Plan',
          position: { x: 0, y: 0 },
          config: { field: 'event.plan', operator: 'equals', value: 'pro' },
        },
        done: { type: 'EXIT', name: 'done', position: { x: 0, y: 100 }, config: {} },
      },
      transitions: [['check', 'done', { branch: 'yes' }]],
    });
    const multi = {
      mode: 'multi',
      field: 'event.plan',
      branches: [{ id: 'branch-pro', name: 'Pro', operator: 'equals', value: 'pro' }],
    };
    const transition = (await api.get<WorkflowBody & { transitions: { id: string }[] }>(`/workflows/${w.id}`)).body
      .transitions[0]!;
    const refused = await api.patch(`/workflows/${w.id}/steps/${w.ids.check}`, { config: multi });
    expect([refused.status, refused.body.error.errors]).toEqual([
      422,
      [{ field: 'config', code: 'STEP_BRANCH_IN_USE', message: expect.stringContaining(transition.id) }],
    ]);
    expect((await api.delete(`/workflows/${w.id}/transitions/${transition.id}`)).status).toBe(200);
    const taken = await api.patch(`/workflows/${w.id}/steps/${w.ids.check}`, { config: multi });
    expect([taken.status, taken.body.config.branches.map((b: { id: string }) => b.id)]).toEqual([200, ['branch-pro']]);
    const tagged = await api.post(`/workflows/${w.id}/transitions`, {
      fromStepId: w.ids.check,
      toStepId: w.ids.done,
      condition: { branch: 'branch-pro' },
    });
    expect([tagged.status, tagged.body.branch]).toEqual([201, 'branch-pro']);
  });

  it('an execution reaching a step without a way on for the way it took ends COMPLETED there: a CONDITION branch without a transition, a WAIT_FOR_EVENT timing out without a timeout branch', async () => {
    const api = await project();
    const cond = await buildPlunkWorkflow(api, {
      eventName: 'plunk-dead-end',
      steps: {
        check: {
          type: 'CONDITION',
          name: 'VIP?',
          position: { x: 0, y: 0 },
          config: { field: 'event.vip', operator: 'equals', value: true },
        },
        vip: { type: 'UPDATE_CONTACT', name: 'mark', position: { x: 0, y: 100 }, config: { updates: { vip: true } } },
      },
      transitions: [['check', 'vip', { branch: 'yes' }]],
    });
    const wait = await buildPlunkWorkflow(api, {
      eventName: 'plunk-wait-end',
      steps: {
        wait: {
          type: 'WAIT_FOR_EVENT',
          name: 'paid?',
          position: { x: 0, y: 0 },
          config: { eventName: 'plunk-paid', timeout: 1 },
        },
        paid: { type: 'EXIT', name: 'paid', position: { x: 0, y: 100 }, config: {} },
      },
      transitions: [['wait', 'paid']],
    });
    for (const w of [cond, wait]) expect((await api.patch(`/workflows/${w.id}`, { enabled: true })).status).toBe(200);
    await api.track({ email: 'plain@example.com', event: 'plunk-dead-end', data: { vip: false } });
    await api.track({ email: 'unpaid@example.com', event: 'plunk-wait-end' });

    const stepsOf = async (workflowId: string, e: ExecutionBody) =>
      (await execution(api, workflowId, e.id)).steps!.map((s) => [s.type, s.outcome]);
    const plain = await finished(api, cond.id, 'plain@example.com', 'COMPLETED');
    expect([plain.reason, await stepsOf(cond.id, plain)]).toEqual([null, [['CONDITION', 'no']]]);
    const unpaid = await finished(api, wait.id, 'unpaid@example.com', 'COMPLETED');
    expect(await stepsOf(wait.id, unpaid)).toEqual([['WAIT_FOR_EVENT', 'timeout']]);
  });

  it("a SEND_EMAIL's recipient CUSTOM is stored as to: the email reaches the custom address, rendered for and tracked under the contact", async () => {
    const api = await project();
    const tpl = (
      await api.post<{ id: string }>('/templates', {
        name: 'New member',
        subject: 'New member: {{ email }} ({{ plan }})',
        body: '<p>{{ email }} joined</p>',
        from: api.from,
        type: 'transactional',
      })
    ).body.id;
    const member = await api.upsert('member@example.com', { plan: 'team' });
    const w = await buildPlunkWorkflow(api, {
      eventName: 'plunk-member',
      steps: {
        tell: {
          type: 'SEND_EMAIL',
          name: 'Tell the boss',
          position: { x: 0, y: 0 },
          config: { recipient: { type: 'CUSTOM', customEmail: 'boss@example.com' } },
          templateId: tpl,
        },
        own: {
          type: 'SEND_EMAIL',
          name: 'Welcome',
          position: { x: 0, y: 100 },
          config: { templateId: tpl, recipient: { type: 'CONTACT' } },
        },
      },
      transitions: [['tell', 'own']],
    });
    const configs = (await api.get<WorkflowBody>(`/workflows/${w.id}`)).body.steps.map((s) => s.config);
    expect(configs).toEqual([{ templateId: tpl, to: 'boss@example.com' }, { templateId: tpl }]);
    const refused = await api.post(`/workflows/${w.id}/steps`, {
      type: 'SEND_EMAIL',
      name: 'nobody',
      config: { templateId: tpl, recipient: { type: 'CUSTOM' } },
    });
    expect([refused.status, refused.body.error.errors.map((e: { field: string }) => e.field)]).toEqual([
      422,
      ['config.recipient.customEmail'],
    ]);
    expect((await api.patch(`/workflows/${w.id}`, { enabled: true })).status).toBe(200);

    expect((await api.track({ email: 'member@example.com', event: 'plunk-member' })).status).toBe(200);
    await eventually(() => mailTo('boss@example.com').length === 1 && mailTo('member@example.com').length === 1);
    expect(mailTo('boss@example.com')[0]!.subject).toBe('New member: member@example.com (team)');
    const done = await finished(api, w.id, 'member@example.com', 'COMPLETED');
    const emailId = (await execution(api, w.id, done.id)).steps![0]!.detail!.emailId as string;
    const email = (await api.get<{ contactId: string; to: { email: string } }>(`/emails/${emailId}`)).body;
    expect([email.to.email, email.contactId]).toEqual(['boss@example.com', member.id]);
  });

  it('a DELAY of 1.5 hours is stored as 90 minutes (the model stays integral); a length that is no whole number of seconds is a 422', async () => {
    const api = await project();
    const w = await buildPlunkWorkflow(api, {
      eventName: 'plunk-delay',
      steps: {
        pause: {
          type: 'DELAY',
          name: 'an hour and a half',
          position: { x: 0, y: 0 },
          config: { amount: 1.5, unit: 'hours' },
        },
        done: { type: 'EXIT', name: 'done', position: { x: 0, y: 100 }, config: {} },
      },
      transitions: [['pause', 'done']],
    });
    const stored = (await api.get<WorkflowBody>(`/workflows/${w.id}`)).body.steps.find((s) => s.id === w.ids.pause)!;
    expect(stored.config).toEqual({ amount: 90, unit: 'minutes' });
    const dry = await api.post(`/workflows/${w.id}/simulate`, {
      contact: { email: 'delay@example.com' },
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(dry.body.path.map((p: { outcome: string; at: string }) => [p.outcome, p.at])).toEqual([
      ['delayed', '2026-01-01T01:30:00.000Z'],
      ['exited', '2026-01-01T01:30:00.000Z'],
    ]);
    const odd = await api.patch(`/workflows/${w.id}/steps/${w.ids.pause}`, {
      config: { amount: 1.0001, unit: 'hours' },
    });
    expect([odd.status, odd.body.error.errors.map((e: { field: string }) => e.field)]).toEqual([
      422,
      ['config.amount'],
    ]);
  });

  it('a WAIT_FOR_EVENT without a timeout waits with no deadline: listed WAITING (no due time, upcoming last), the dry run stops there, and the event tracked by /v1/track resumes it', async () => {
    const api = await project();
    const w = await buildPlunkWorkflow(api, {
      eventName: 'plunk-order',
      steps: {
        paid: { type: 'WAIT_FOR_EVENT', name: 'Paid?', position: { x: 0, y: 0 }, config: { eventName: 'plunk-paid' } },
        mark: {
          type: 'UPDATE_CONTACT',
          name: 'Mark paid',
          position: { x: 0, y: 100 },
          config: { updates: { paid: true } },
        },
      },
      transitions: [['paid', 'mark']],
    });
    expect((await api.patch(`/workflows/${w.id}`, { enabled: true })).status).toBe(200);
    expect((await api.track({ email: 'buyer@example.com', event: 'plunk-order' })).status).toBe(200);

    const waiting = await finished(api, w.id, 'buyer@example.com', 'WAITING');
    const [run] = (await execution(api, w.id, waiting.id)).steps!;
    expect([run!.type, run!.status, run!.dueAt]).toEqual(['WAIT_FOR_EVENT', 'PENDING', null]);
    // analytics' upcoming list: the waiting execution with no due time (workflow.waiting without dueAt)
    const upcoming = await eventually(async () => {
      const body = (await api.get('/activity/upcoming')).body;
      return body.executions[0]?.nextStep.type ? body.executions : undefined;
    });
    expect(upcoming).toEqual([
      {
        executionId: waiting.id,
        workflow: { id: w.id, name: 'plunk plunk-order' },
        contact: { id: waiting.contactId, email: 'buyer@example.com' },
        nextStep: { id: w.ids.paid, type: 'WAIT_FOR_EVENT', name: 'Paid?' },
        dueAt: null,
      },
    ]);
    const dry = await api.post(`/workflows/${w.id}/simulate`, { contact: { email: 'dry@example.com' } });
    expect([
      dry.body.status,
      dry.body.path.map((p: { stepId: string; outcome: string }) => [p.stepId, p.outcome]),
    ]).toEqual(['WAITING', [[w.ids.paid, 'waiting']]]);

    expect((await api.track({ email: 'buyer@example.com', event: 'plunk-paid', data: { amount: 42 } })).status).toBe(
      200,
    );
    const done = await finished(api, w.id, 'buyer@example.com', 'COMPLETED');
    expect(done.context).toEqual({ amount: 42 });
    expect((await api.contact(done.contactId)).data).toMatchObject({ paid: true });
    expect((await execution(api, w.id, done.id)).steps!.map((s) => [s.type, s.outcome])).toEqual([
      ['WAIT_FOR_EVENT', 'event'],
      ['UPDATE_CONTACT', 'updated'],
    ]);
  });

  it('a WAIT_FOR_EVENT without a timeout has no timeout branch: a transition tagged fallback is a 422, and so is a config dropping the timeout a transition leaves by', async () => {
    const api = await project();
    const w = await buildPlunkWorkflow(api, {
      eventName: 'plunk-no-timeout',
      steps: {
        forever: { type: 'WAIT_FOR_EVENT', name: 'forever', position: { x: 0, y: 0 }, config: { eventName: 'a' } },
        timed: {
          type: 'WAIT_FOR_EVENT',
          name: 'timed',
          position: { x: 200, y: 0 },
          config: { eventName: 'b', timeout: 60 },
        },
        end: { type: 'EXIT', name: 'end', position: { x: 0, y: 100 }, config: {} },
      },
      transitions: [['timed', 'end', { fallback: true }]],
    });
    const tagged = await api.post(`/workflows/${w.id}/transitions`, {
      fromStepId: w.ids.forever,
      toStepId: w.ids.end,
      condition: { fallback: true },
    });
    expect([tagged.status, tagged.body.error.errors]).toEqual([
      422,
      [
        {
          field: 'condition.fallback',
          code: 'TRANSITION_BRANCH_INVALID',
          message: expect.stringMatching(/no timeout/),
        },
      ],
    ]);
    const dropped = await api.patch(`/workflows/${w.id}/steps/${w.ids.timed}`, { config: { eventName: 'b' } });
    expect([
      dropped.status,
      dropped.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
    ]).toEqual([422, [['config.timeout', 'STEP_BRANCH_IN_USE']]]);
  });
});
