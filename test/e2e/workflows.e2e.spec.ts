import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { fieldsOf, newProject, refusalOf, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';
import { SendingDb } from './sending-helpers.js';
import { buildWorkflow, execution, executions, projectWithDomain } from './workflows-helpers.js';

/** Eventual rules get 30 s: a loaded machine, and Kafka between the services in distributed mode. */
const eventually: typeof eventuallyWithin = (probe, options = {}) =>
  eventuallyWithin(probe, { timeoutMs: 30_000, ...options });

const WEBHOOK_SECRET = 'wfsec_e2e_0123456789';

/**
 * Workflows through the gateway, mail into a loopback SMTP sink (issue 23, "Done when"): triggers,
 * CONDITION branches, DELAY across a restart, WAIT_FOR_EVENT, WEBHOOK with the SSRF guard,
 * UPDATE_CONTACT and EXIT, re-entry, cancel, delete, the dry run. Runs in the run's mode
 * (HERALD_E2E_MODE: one process, or every service its own over Kafka); its own topology, since it
 * restarts the workflows process.
 */
describe(`workflows through the public API (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;
  let owner: string;
  let receiver: Server;
  const hooks: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

  const project = () => projectWithDomain(herald.url, owner, dns, sending);
  const template = async (api: TestProjectApi & { from: string }, subject: string, type = 'transactional') =>
    (
      await api.post<{ id: string }>('/templates', {
        name: subject,
        subject,
        body: `<p>${subject}</p>`,
        from: api.from,
        type,
      })
    ).body.id;
  const mailTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    dns = await startDnsServer();
    smtp = await startSmtpSink();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(req.url?.includes('fail') ? 500 : 200).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    herald = await startTopology({
      exclusive: true,
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        DNS_SERVERS: dns.address,
        SMTP_URL: smtp.url,
        WORKFLOW_WEBHOOK_ALLOW: '127.0.0.1/32',
        WORKFLOW_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    sending = new SendingDb(herald.db.url);
    owner = (await newProject(herald.url)).cookie;
  }, 360_000);

  afterAll(async () => {
    await sending?.end();
    await herald?.stop();
    await new Promise((r) => receiver?.close(r));
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  it('/v1/track starts the workflow and CONDITION sends the yes-branch or the no-branch email', async () => {
    const api = await project();
    const yes = await template(api, 'Pro welcome');
    const no = await template(api, 'Free welcome');
    const w = await buildWorkflow(api, {
      eventName: 'signed-up',
      steps: [
        ['CONDITION', { operator: 'AND', conditions: [{ field: 'event.plan', operator: 'equals', value: 'pro' }] }],
        ['SEND_EMAIL', { templateId: yes }],
        ['SEND_EMAIL', { templateId: no }],
      ],
      edges: [
        [0, 1, 'yes'],
        [0, 2, 'no'],
      ],
    });
    expect((await api.track({ email: 'pro@example.com', event: 'signed-up', data: { plan: 'pro' } })).status).toBe(200);
    expect((await api.track({ email: 'free@example.com', event: 'signed-up', data: { plan: 'free' } })).status).toBe(
      200,
    );
    await eventually(() => mailTo('pro@example.com').length === 1 && mailTo('free@example.com').length === 1);
    expect(mailTo('pro@example.com')[0]!.subject).toBe('Pro welcome');
    expect(mailTo('free@example.com')[0]!.subject).toBe('Free welcome');
    const done = await eventually(async () => {
      const list = await executions(api, w.id, 'COMPLETED');
      return list.length === 2 ? list : undefined;
    });
    const detail = await execution(api, w.id, done[0]!.id);
    expect(detail.steps!.map((s) => s.type)).toEqual(['CONDITION', 'SEND_EMAIL']);
  });

  it('POST /events/track (the dashboard alias of /v1/track) starts the workflow too; GET /workflows/fields then lists the contact fields, the data fields with their types and the trigger event data keys', async () => {
    const api = await project();
    await api.upsert('dash@example.com', { plan: 'pro', seats: 3 });
    const w = await buildWorkflow(api, {
      eventName: 'dash-ordered',
      steps: [['EXIT', { reason: 'from the dashboard' }]],
    });
    const tracked = await api.post('/events/track', {
      email: 'dash@example.com',
      event: 'dash-ordered',
      data: { total: 10, coupon: 'AUTUMN' },
    });
    expect(tracked.status).toBeLessThan(300);
    const done = await eventually(async () => (await executions(api, w.id, 'EXITED'))[0]);
    expect(done).toMatchObject({ reason: 'from the dashboard' });

    type Fields = {
      contact: { field: string; type: string }[];
      events: Record<string, { field: string; type: string }[]>;
      context: { field: string }[];
    };
    const fields = await eventually(async () => {
      const res = await api.get<Fields>('/workflows/fields');
      expect(res.status).toBe(200);
      const body = res.body;
      return body.events['dash-ordered'] && body.contact.some((f) => f.field === 'data.seats') ? body : undefined;
    });
    expect(fields.contact).toEqual(
      expect.arrayContaining([
        { field: 'email', type: 'string' },
        { field: 'subscribed', type: 'boolean' },
        { field: 'data.plan', type: 'string' },
        { field: 'data.seats', type: 'number' },
      ]),
    );
    expect(fields.events['dash-ordered']).toEqual([
      { field: 'event.coupon', type: 'string' },
      { field: 'event.total', type: 'number' },
    ]);
    expect(fields.context.length).toBeGreaterThan(0);
    const other = await newProject(herald.url, owner);
    expect((await other.get<Fields>('/workflows/fields')).body.events).toEqual({});
  });

  it('the usage routes list a workflow by its trigger and awaited events, its SEND_EMAIL templates and its CONDITION and UPDATE_CONTACT fields', async () => {
    const api = await project();
    // a field's usage is asked of a field the project has (an unknown one is a 404)
    await api.upsert('usage@example.com', { plan: 'free', tier: 'bronze' });
    const tpl = await template(api, 'Usage mail');
    const w = await buildWorkflow(api, {
      eventName: 'usage-trigger',
      steps: [
        ['CONDITION', { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }],
        ['UPDATE_CONTACT', { data: { tier: 'gold' } }],
        ['WAIT_FOR_EVENT', { eventName: 'usage-awaited', timeout: 60 }],
        ['SEND_EMAIL', { templateId: tpl }],
        ['EXIT', {}],
        ['EXIT', {}],
      ],
      edges: [
        [0, 1, 'yes'],
        [0, 4, 'no'],
        [1, 2],
        [2, 3, 'event'],
        [2, 5, 'timeout'],
      ],
    });
    const name = (await api.get<{ name: string }>(`/workflows/${w.id}`)).body.name;
    const listed = { id: w.id, name };
    const usage = async () => ({
      template: (await api.get(`/templates/${tpl}/usage`)).body.workflows,
      trigger: (await api.get('/events/usage-trigger/usage')).body.workflows,
      awaited: (await api.get('/events/usage-awaited/usage')).body.workflows,
      condition: (await api.get('/contacts/fields/data.plan/usage')).body.workflows,
      update: (await api.get('/contacts/fields/data.tier/usage')).body.workflows,
    });
    let last: unknown;
    const seen = await eventually(
      async () => {
        const u = (last = await usage());
        return Object.values(u).every((list) => Array.isArray(list) && list.length === 1) ? u : undefined;
      },
      { timeoutMs: 30_000, message: 'the references never all reached their owners' },
    ).catch((err: Error) => {
      throw new Error(`${err.message}; last answers: ${JSON.stringify(last)}`);
    });
    expect(seen).toEqual({
      template: [{ ...listed, stepId: w.steps[3]!.id }],
      trigger: [listed],
      awaited: [{ ...listed, at: w.steps[2]!.id }],
      condition: [{ ...listed, at: w.steps[0]!.id }],
      update: [{ ...listed, at: w.steps[1]!.id }],
    });
    const other = await newProject(herald.url, owner);
    expect((await other.get('/events/usage-trigger/usage')).body.workflows).toEqual([]);
  });

  it('a template used by an enabled workflow cannot be deleted (409 TEMPLATE_IN_USE); once the workflow is disabled it can', async () => {
    const api = await project();
    const tpl = await template(api, 'Kept while enabled');
    const w = await buildWorkflow(api, { eventName: 'kept', steps: [['SEND_EMAIL', { templateId: tpl }]], edges: [] });
    // the workflow's references reach sending as an event: wait until sending holds the enabled revision
    const activeInSending = async () =>
      (
        await sending.query(`SELECT 1 FROM sending.resource_references WHERE resource_id = $1 AND refs @> $2::jsonb`, [
          w.id,
          JSON.stringify([{ kind: 'template', key: tpl, active: true }]),
        ])
      ).rowCount === 1;
    await eventually(async () => ((await activeInSending()) ? true : undefined));
    const refused = await api.delete<ErrorBody>(`/templates/${tpl}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('TEMPLATE_IN_USE');
    expect(refused.body.error.message).toContain(w.id);
    expect((await api.patch(`/workflows/${w.id}`, { enabled: false })).status).toBe(200);
    await eventually(async () => (!(await activeInSending()) ? true : undefined));
    expect((await api.delete(`/templates/${tpl}`)).status).toBe(204);
  });

  it('DELAY resumes after its time, also across a restart (SIGKILL while it waits)', async () => {
    const api = await project();
    const tpl = await template(api, 'After the delay');
    const w = await buildWorkflow(api, {
      eventName: 'delayed',
      steps: [
        ['DELAY', { amount: 4, unit: 'seconds' }],
        ['SEND_EMAIL', { templateId: tpl }],
      ],
    });
    await api.track({ email: 'delay@example.com', event: 'delayed' });
    await eventually(async () => (await executions(api, w.id, 'WAITING')).length === 1);
    await herald.restart('workflows', 'SIGKILL');
    await eventually(() => mailTo('delay@example.com').length === 1, { timeoutMs: 60_000 });
    const [e] = await executions(api, w.id);
    const delay = (await execution(api, w.id, e!.id)).steps!.find((s) => s.type === 'DELAY')!;
    expect(new Date(delay.finishedAt!).getTime() - new Date(delay.startedAt).getTime()).toBeGreaterThanOrEqual(4000);
  }, 180_000);

  it('WAIT_FOR_EVENT resumes on the event (its data merged into the context) and times out without it', async () => {
    const api = await project();
    const paid = await template(api, 'Thanks for paying');
    const late = await template(api, 'Still waiting');
    const w = await buildWorkflow(api, {
      eventName: 'checkout',
      steps: [
        ['WAIT_FOR_EVENT', { eventName: 'paid', timeout: 3 }],
        ['SEND_EMAIL', { templateId: paid }],
        ['SEND_EMAIL', { templateId: late }],
      ],
      edges: [
        [0, 1, 'event'],
        [0, 2, 'timeout'],
      ],
    });
    await api.track({ email: 'payer@example.com', event: 'checkout' });
    await api.track({ email: 'idle@example.com', event: 'checkout' });
    await eventually(async () => (await executions(api, w.id, 'WAITING')).length === 2);
    await api.track({ email: 'payer@example.com', event: 'paid', data: { amount: 42 } });
    await eventually(() => mailTo('payer@example.com').length === 1 && mailTo('idle@example.com').length === 1, {
      timeoutMs: 30_000,
    });
    expect(mailTo('payer@example.com')[0]!.subject).toBe('Thanks for paying');
    expect(mailTo('idle@example.com')[0]!.subject).toBe('Still waiting');
    const payer = (await executions(api, w.id)).find((e) => e.context.amount === 42);
    expect(payer).toBeDefined();
  });

  it('WEBHOOK reaches an allowlisted loopback receiver with the signed body, and is refused for a private address', async () => {
    const api = await project();
    const port = (receiver.address() as AddressInfo).port;
    const ok = await buildWorkflow(api, {
      eventName: 'hook',
      steps: [['WEBHOOK', { url: `http://127.0.0.1:${port}/in/{{ contact.email }}`, method: 'POST' }]],
    });
    const refused = await buildWorkflow(api, {
      eventName: 'hook-private',
      steps: [['WEBHOOK', { url: 'http://127.0.0.2:9/', method: 'POST' }]],
    });
    await api.track({ email: 'hooked@example.com', event: 'hook', data: { n: 1 } });
    const hit = await eventually(() => hooks.find((h) => h.body.includes('hooked@example.com')));
    const [t, v1] = String(hit.headers['x-herald-signature'])
      .split(',')
      .map((p) => p.split('=')[1]);
    expect(v1).toBe(createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${hit.body}`).digest('hex'));
    expect(hit.headers['idempotency-key']).toMatch(/^wfr_/);
    expect(JSON.parse(hit.body)).toMatchObject({ workflow: { id: ok.id }, event: { n: 1 } });
    await api.track({ email: 'hooked@example.com', event: 'hook-private' });
    const failed = await eventually(async () => (await executions(api, refused.id, 'FAILED'))[0]);
    expect(failed.reason).toMatch(/not a public address/);
  });

  it('UPDATE_CONTACT changes the contact, and EXIT ends the execution', async () => {
    const api = await project();
    const c = await api.upsert('upd@example.com', { plan: 'free' });
    const w = await buildWorkflow(api, {
      eventName: 'upgrade',
      steps: [
        ['UPDATE_CONTACT', { data: { plan: 'pro' } }],
        ['EXIT', { reason: 'upgraded' }],
      ],
    });
    await api.track({ email: 'upd@example.com', event: 'upgrade' });
    const e = await eventually(async () => (await executions(api, w.id, 'EXITED'))[0]);
    expect(e.reason).toBe('upgraded');
    expect((await api.contact(c.id)).data).toMatchObject({ plan: 'pro' });
  });

  it('allowReentry both ways; cancel and cancel-all; delete refused while executions are active', async () => {
    const api = await project();
    const once = await buildWorkflow(api, { eventName: 'again', steps: [['EXIT', {}]] });
    const many = await buildWorkflow(api, { eventName: 'again', allowReentry: true, steps: [['EXIT', {}]] });
    await api.track({ email: 're@example.com', event: 'again' });
    await eventually(
      async () =>
        (await executions(api, once.id)).length === 1 && (await executions(api, many.id, 'EXITED')).length === 1,
    );
    await api.track({ email: 're@example.com', event: 'again' });
    await eventually(async () => (await executions(api, many.id, 'EXITED')).length === 2);
    expect(await executions(api, once.id)).toHaveLength(1);

    const slow = await buildWorkflow(api, {
      eventName: 'slow',
      steps: [
        ['DELAY', { amount: 1, unit: 'hours' }],
        ['EXIT', {}],
      ],
    });
    for (const email of ['s1@example.com', 's2@example.com', 's3@example.com'])
      await api.track({ email, event: 'slow' });
    const waiting = await eventually(async () => {
      const list = await executions(api, slow.id, 'WAITING');
      return list.length === 3 ? list : undefined;
    });
    const del = await api.delete<ErrorBody>(`/workflows/${slow.id}`);
    expect([del.status, del.body.error.code]).toEqual([409, 'WORKFLOW_HAS_ACTIVE_EXECUTIONS']);
    expect((await api.delete(`/workflows/${slow.id}/executions/${waiting[0]!.id}`)).body).toMatchObject({
      status: 'CANCELLED',
    });
    expect((await api.delete(`/workflows/${slow.id}/executions/${waiting[0]!.id}`)).status).toBe(409);
    expect((await api.post(`/workflows/${slow.id}/executions/cancel-all`)).body).toEqual({ cancelled: 2 });
    expect(await executions(api, slow.id, 'CANCELLED')).toHaveLength(3);
    expect((await api.delete(`/workflows/${slow.id}`)).status).toBe(200);
    expect((await api.get(`/workflows/${slow.id}`)).status).toBe(404);
  });

  it('editing a live workflow: running executions keep the version they started on, new ones take the edit', async () => {
    const api = await project();
    const before = await template(api, 'Version one');
    const after = await template(api, 'Version two');
    const w = await buildWorkflow(api, {
      eventName: 'versioned',
      steps: [
        ['DELAY', { amount: 2, unit: 'seconds' }],
        ['SEND_EMAIL', { templateId: before }],
      ],
    });
    await api.track({ email: 'old@example.com', event: 'versioned' });
    await eventually(async () => (await executions(api, w.id, 'WAITING')).length === 1);
    const edit = await api.patch(`/workflows/${w.id}/steps/${w.steps[1]!.id}`, { config: { templateId: after } });
    expect(edit.status).toBe(200);
    // an edit leaving the live graph with a problem is made, and the problem reported (enabled as sent)
    const cut = await api.delete(
      `/workflows/${w.id}/transitions/${(await api.get(`/workflows/${w.id}`)).body.transitions[0].id}`,
    );
    expect(cut.status).toBe(200);
    expect((await api.get(`/workflows/${w.id}`)).body.problems).toEqual([
      { stepId: w.steps[1]!.id, code: 'STEP_UNREACHABLE', message: expect.any(String) },
    ]);
    const rejoined = await api.post(`/workflows/${w.id}/transitions`, {
      fromStepId: w.steps[0]!.id,
      toStepId: w.steps[1]!.id,
    });
    expect(rejoined.status).toBe(201);
    expect((await api.get(`/workflows/${w.id}`)).body.problems).toEqual([]);
    await api.track({ email: 'new@example.com', event: 'versioned' });
    await eventually(() => mailTo('old@example.com').length === 1 && mailTo('new@example.com').length === 1, {
      timeoutMs: 30_000,
    });
    expect(mailTo('old@example.com')[0]!.subject).toBe('Version one');
    expect(mailTo('new@example.com')[0]!.subject).toBe('Version two');
  });

  it('the dry run of a draft: path with virtual times, branch values, the emails, webhooks and updates it would make', async () => {
    const api = await project();
    const tpl = await template(api, 'Hello {{ name ?? "there" }}');
    const w = await buildWorkflow(api, {
      eventName: 'sim',
      draft: true,
      steps: [
        ['DELAY', { amount: 2, unit: 'days' }],
        ['CONDITION', { operator: 'AND', conditions: [{ field: 'data.age', operator: 'gte', value: 18 }] }],
        ['SEND_EMAIL', { templateId: tpl }],
        ['EXIT', { reason: 'minor' }],
      ],
      edges: [
        [0, 1],
        [1, 2, 'yes'],
        [1, 3, 'no'],
      ],
    });
    const r = await api.post(`/workflows/${w.id}/simulate`, {
      contact: { email: 'sim@example.com', data: { age: 30, name: 'Ada' } },
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(r.status).toBe(200);
    expect(r.body.path.map((p: { outcome: string; at: string }) => [p.outcome, p.at])).toEqual([
      ['delayed', '2026-01-03T00:00:00.000Z'],
      ['yes', '2026-01-03T00:00:00.000Z'],
      ['sent', '2026-01-03T00:00:00.000Z'],
    ]);
    expect(r.body.path[1].why).toEqual({ values: { 'data.age': 30 } });
    expect(r.body.emails).toEqual([
      { stepId: w.steps[2]!.id, to: 'sim@example.com', templateId: tpl, subject: 'Hello Ada' },
    ]);
    expect(mailTo('sim@example.com')).toEqual([]);
    expect((await api.get(`/workflows/${w.id}/executions`)).body.total).toBe(0);
  });

  it("another project's template, segment or step is refused at save exactly as an unknown id: a 422 naming the field, when a step is added or updated and when a transition is added", async () => {
    const api = await project();
    const other = await project();
    const theirTemplate = await template(other, 'Theirs');
    const theirSegment = (await createSegment(other, { name: 'theirs', filters: where('subscribed', 'equals', true) }))
      .id;
    const theirs = await buildWorkflow(other, { eventName: 'theirs', draft: true, steps: [['EXIT', {}]] });
    const mySegment = (await createSegment(api, { name: 'mine', filters: where('subscribed', 'equals', true) })).id;
    const w = await buildWorkflow(api, {
      eventName: 'refs',
      draft: true,
      steps: [
        ['SEND_EMAIL', { templateId: await template(api, 'Mine') }],
        ['CONDITION', where(`segment.${mySegment}`, 'isMember')],
      ],
      edges: [],
    });
    const [send, condition] = w.steps;
    const nested = (id: string) => ({
      operator: 'OR',
      conditions: [where(`segment.${mySegment}`, 'isMember'), where(`segment.${id}`, 'isNotMember')],
    });
    // the field, another project's id, a request naming an id
    const cases: [string, string, (id: string) => [string, string, unknown]][] = [
      [
        'config.templateId',
        theirTemplate,
        (id) => ['POST', `/workflows/${w.id}/steps`, { type: 'SEND_EMAIL', name: 's', config: { templateId: id } }],
      ],
      [
        'config.templateId',
        theirTemplate,
        (id) => ['PATCH', `/workflows/${w.id}/steps/${send!.id}`, { config: { templateId: id } }],
      ],
      [
        'config.conditions[1].conditions[0].field',
        theirSegment,
        (id) => ['POST', `/workflows/${w.id}/steps`, { type: 'CONDITION', name: 'c', config: nested(id) }],
      ],
      [
        'config.conditions[0].field',
        theirSegment,
        (id) => ['PATCH', `/workflows/${w.id}/steps/${condition!.id}`, { config: where(`segment.${id}`, 'isMember') }],
      ],
      [
        'toStepId',
        theirs.steps[0]!.id,
        (id) => ['POST', `/workflows/${w.id}/transitions`, { fromStepId: send!.id, toStepId: id }],
      ],
    ];
    for (const [field, id, request] of cases) {
      const [method, path, body] = request(id);
      const foreign = await api.call<ErrorBody>(method, path, body);
      const unknown = await api.call<ErrorBody>(...request('wfs_or_tpl_unknown'));
      expect([method, path, foreign.status]).toEqual([method, path, 422]);
      expect(fieldsOf(foreign.body)).toEqual([field]);
      expect(refusalOf(foreign.status, foreign.body, id)).toEqual(
        refusalOf(unknown.status, unknown.body, 'wfs_or_tpl_unknown'),
      );
    }
    const saved = (
      await api.get<{ steps: { id: string; config: unknown }[]; transitions: unknown[] }>(`/workflows/${w.id}`)
    ).body;
    expect(saved.steps.map((s) => s.config)).toEqual([
      { templateId: expect.stringMatching(/^tpl_/) },
      where(`segment.${mySegment}`, 'isMember'),
    ]);
    expect(saved.transitions).toEqual([]);
  });

  it('isolation and bad input: another project sees 404; cross-workflow transitions and non-http webhooks are 422; enabling is as sent, the problems naming the step', async () => {
    const api = await project();
    const other = await newProject(herald.url, owner);
    const a = await buildWorkflow(api, { eventName: 'iso', draft: true, steps: [['EXIT', {}]] });
    const b = await buildWorkflow(api, {
      eventName: 'iso2',
      draft: true,
      steps: [['DELAY', { amount: 1, unit: 'seconds' }]],
    });
    expect((await other.get(`/workflows/${a.id}`)).status).toBe(404);
    expect((await other.delete(`/workflows/${a.id}/steps/${a.steps[0]!.id}`)).status).toBe(404);
    const cross = await api.post<ErrorBody>(`/workflows/${b.id}/transitions`, {
      fromStepId: b.steps[0]!.id,
      toStepId: a.steps[0]!.id,
    });
    expect([cross.status, fieldsOf(cross.body)]).toEqual([422, ['toStepId']]);
    const hook = await api.post<ErrorBody>(`/workflows/${a.id}/steps`, {
      type: 'WEBHOOK',
      name: 'x',
      config: { url: 'ftp://example.com' },
    });
    expect([hook.status, fieldsOf(hook.body)]).toEqual([422, ['config.url']]);
    const orphan = (await api.post(`/workflows/${b.id}/steps`, { type: 'EXIT', name: 'orphan', config: {} })).body;
    const enable = await api.patch(`/workflows/${b.id}`, { enabled: true });
    expect([enable.status, enable.body.enabled]).toEqual([200, true]);
    expect(enable.body.problems).toEqual([
      { stepId: orphan.id, code: 'STEP_UNREACHABLE', message: expect.stringMatching(/orphan/) },
    ]);
    const created = await api.post('/workflows', { name: 'n', eventName: 'x', enabled: true });
    expect(created.body).toMatchObject({ enabled: false, triggerType: 'EVENT' });
  });
});
