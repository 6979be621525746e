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
import { newProject, type ErrorBody, type Json } from './contacts-helpers.js';
import { SendingDb } from './sending-helpers.js';
import { buildWorkflow, execution, executions, projectWithDomain, type ExecutionBody } from './workflows-helpers.js';

/** Eventual rules get 30 s: a loaded machine, and Kafka between the services in distributed mode. */
const eventually: typeof eventuallyWithin = (probe, options = {}) =>
  eventuallyWithin(probe, { timeoutMs: 30_000, ...options });

/** The first webhook backoff here (ms): five attempts take 50 + 200 + 800 + 3,200 ms of waiting. */
const WEBHOOK_RETRY_BASE_MS = '50';

/**
 * What starts, stops and isolates executions, through the gateway (issue 23; docs/workflows.md,
 * "Executions" and "WEBHOOK"): system events as triggers, the manual start, a deleted contact, a
 * disabled workflow, another project's transitions and executions, and a webhook whose receiver keeps
 * failing. workflows.e2e covers the step types; this file the executions' lifecycle. Runs in the run's
 * mode (HERALD_E2E_MODE), mail into a loopback SMTP sink; its own topology, for the loopback allowlist
 * and the short webhook backoff.
 */
describe(`workflow executions: triggers, lifecycle and isolation (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;
  let owner: string;
  let receiver: Server;
  const hooks: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hooks.push({ url: req.url ?? '', headers: req.headers });
        res.writeHead(503).end('down for maintenance');
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
        WORKFLOW_WEBHOOK_RETRY_BASE_MS: WEBHOOK_RETRY_BASE_MS,
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

  const project = () => newProject(herald.url, owner);
  const only = async (api: Parameters<typeof executions>[0], workflowId: string, status: string) =>
    eventually(async () => {
      const list = await executions(api, workflowId, status);
      return list.length === 1 ? list[0] : undefined;
    });

  it('a system event of the contact starts the workflows it triggers (contact.unsubscribed, email.sent), its data as the execution event', async () => {
    const api = await projectWithDomain(herald.url, owner, dns, sending);
    const onUnsubscribed = await buildWorkflow(api, { eventName: 'contact.unsubscribed', steps: [['EXIT', {}]] });
    const onSent = await buildWorkflow(api, { eventName: 'email.sent', steps: [['EXIT', {}]] });
    const leaver = await api.upsert('leaver@example.com');
    expect((await api.patch(`/contacts/${leaver.id}`, { subscribed: false })).status).toBe(200);
    const sent = await api.post<Json>('/v1/send', {
      to: 'receipt@example.com',
      from: api.from,
      subject: 'Your receipt',
      body: '<p>Thanks</p>',
    });
    expect(sent.status).toBe(200);
    const [email] = sent.body.data.emails as { email: string; contact: { id: string } }[];

    expect(await only(api, onUnsubscribed.id, 'EXITED')).toMatchObject({
      contactId: leaver.id,
      trigger: 'contact.unsubscribed',
      event: { reason: 'api' },
    });
    expect(await only(api, onSent.id, 'EXITED')).toMatchObject({
      contactId: email!.contact.id,
      trigger: 'email.sent',
      event: { emailId: email!.email, subject: 'Your receipt' },
    });
  });

  it('POST /workflows/:id/executions starts one by hand, on a draft too, with the given context; a second start of the contact is a 409 without re-entry', async () => {
    const api = await project();
    const contact = await api.upsert('manual@example.com');
    const w = await buildWorkflow(api, {
      eventName: 'never-tracked',
      draft: true,
      steps: [
        ['CONDITION', { operator: 'AND', conditions: [{ field: 'context.tier', operator: 'equals', value: 'gold' }] }],
        ['EXIT', { reason: 'gold' }],
        ['EXIT', { reason: 'not gold' }],
      ],
      edges: [
        [0, 1, 'yes'],
        [0, 2, 'no'],
      ],
    });
    const start = () =>
      api.post<ExecutionBody & ErrorBody>(`/workflows/${w.id}/executions`, {
        contactId: contact.id,
        context: { tier: 'gold' },
      });
    const started = await start();
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ contactId: contact.id, trigger: 'manual', context: { tier: 'gold' } });
    const done = await eventually(async () => {
      const e = await execution(api, w.id, started.body.id);
      return e.status === 'EXITED' ? e : undefined;
    });
    expect(done.reason).toBe('gold');
    const again = await start();
    expect([again.status, again.body.error.code]).toEqual([409, 'WORKFLOW_EXECUTION_NOT_STARTED']);
    expect(await executions(api, w.id)).toHaveLength(1);
  });

  it("deleting a contact cancels its active executions; another contact's execution keeps waiting", async () => {
    const api = await project();
    const w = await buildWorkflow(api, {
      eventName: 'trial',
      steps: [
        ['DELAY', { amount: 1, unit: 'hours' }],
        ['EXIT', {}],
      ],
    });
    await api.track({ email: 'gone@example.com', event: 'trial' });
    await api.track({ email: 'stays@example.com', event: 'trial' });
    const waiting = await eventually(async () => {
      const list = await executions(api, w.id, 'WAITING');
      return list.length === 2 ? list : undefined;
    });
    const gone = waiting.find((e) => e.email === 'gone@example.com')!;
    const stays = waiting.find((e) => e.email === 'stays@example.com')!;
    expect((await api.delete(`/contacts/${gone.contactId}`)).status).toBe(200);
    expect(await only(api, w.id, 'CANCELLED')).toMatchObject({ id: gone.id, reason: 'the contact was deleted' });
    expect((await execution(api, w.id, gone.id)).steps!.map((s) => [s.type, s.status])).toEqual([
      ['DELAY', 'CANCELLED'],
    ]);
    expect((await executions(api, w.id, 'WAITING')).map((e) => e.id)).toEqual([stays.id]);
  });

  it('disabling a workflow stops new executions from starting, while the running ones continue on their version', async () => {
    const api = await project();
    const w = await buildWorkflow(api, {
      eventName: 'onboard',
      steps: [
        ['WAIT_FOR_EVENT', { eventName: 'go', timeout: 3600 }],
        ['EXIT', { reason: 'continued' }],
        ['EXIT', { reason: 'timed out' }],
      ],
      edges: [
        [0, 1, 'event'],
        [0, 2, 'timeout'],
      ],
    });
    // the same trigger, still enabled: its execution shows that an event was applied (in one look-up)
    const witness = await buildWorkflow(api, { eventName: 'onboard', steps: [['EXIT', {}]] });
    await api.track({ email: 'early@example.com', event: 'onboard' });
    const running = await only(api, w.id, 'WAITING');
    expect((await api.patch(`/workflows/${w.id}`, { enabled: false })).body).toMatchObject({ enabled: false });

    await api.track({ email: 'late@example.com', event: 'onboard' });
    await eventually(async () => (await executions(api, witness.id)).some((e) => e.email === 'late@example.com'));
    expect((await executions(api, w.id)).map((e) => e.id)).toEqual([running.id]);

    await api.track({ email: 'early@example.com', event: 'go' });
    expect(await only(api, w.id, 'EXITED')).toMatchObject({ id: running.id, reason: 'continued' });
  });

  it("another project's transitions and executions routes answer 404, and it cannot start a workflow for the first project's contact", async () => {
    const api = await project();
    const other = await project();
    const contact = await api.upsert('isolated@example.com');
    const w = await buildWorkflow(api, {
      eventName: 'iso-wait',
      steps: [
        ['DELAY', { amount: 1, unit: 'hours' }],
        ['EXIT', {}],
      ],
    });
    const transitionId = (await api.get(`/workflows/${w.id}`)).body.transitions[0].id as string;
    const started = (await api.post<ExecutionBody>(`/workflows/${w.id}/executions`, { contactId: contact.id })).body;
    const theirs = await buildWorkflow(other, { eventName: 'iso-wait', draft: true, steps: [['EXIT', {}]] });
    const routes: [string, string, unknown?][] = [
      ['POST', `/workflows/${w.id}/transitions`, { fromStepId: w.steps[1]!.id, toStepId: w.steps[0]!.id }],
      ['DELETE', `/workflows/${w.id}/transitions/${transitionId}`],
      ['DELETE', `/workflows/${theirs.id}/transitions/${transitionId}`],
      ['POST', `/workflows/${w.id}/executions`, { contactId: contact.id }],
      ['GET', `/workflows/${w.id}/executions`],
      ['GET', `/workflows/${w.id}/executions/${started.id}`],
      ['GET', `/workflows/${theirs.id}/executions/${started.id}`],
      ['DELETE', `/workflows/${w.id}/executions/${started.id}`],
      ['DELETE', `/workflows/${theirs.id}/executions/${started.id}`],
      ['POST', `/workflows/${w.id}/executions/cancel-all`, {}],
      ['POST', `/workflows/${theirs.id}/executions`, { contactId: contact.id }],
    ];
    for (const [method, path, body] of routes)
      expect([method, path, (await other.call(method, path, body)).status]).toEqual([method, path, 404]);

    expect((await api.get(`/workflows/${w.id}`)).body.transitions.map((t: { id: string }) => t.id)).toEqual([
      transitionId,
    ]);
    expect((await executions(api, w.id)).map((e) => [e.id, e.status])).toEqual([[started.id, 'WAITING']]);
    expect(await executions(other, theirs.id)).toEqual([]);
  });

  it('a WEBHOOK answered non-2xx is retried with the same Idempotency-Key, and the fifth failure fails the execution with the answer recorded', async () => {
    const api = await project();
    const port = (receiver.address() as AddressInfo).port;
    const w = await buildWorkflow(api, {
      eventName: 'notify-crm',
      steps: [
        ['WEBHOOK', { url: `http://127.0.0.1:${port}/crm/{{ contact.email }}`, method: 'POST' }],
        ['EXIT', {}],
      ],
    });
    await api.track({ email: 'retried@example.com', event: 'notify-crm' });
    const failed = await only(api, w.id, 'FAILED');
    expect(failed.reason).toBe('webhook 0: the webhook answered 503');

    const calls = hooks.filter((h) => h.url === '/crm/retried@example.com');
    expect(calls).toHaveLength(5);
    expect(new Set(calls.map((c) => c.headers['idempotency-key']))).toEqual(new Set([expect.stringMatching(/^wfr_/)]));
    const runs = (await execution(api, w.id, failed.id)).steps!;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      type: 'WEBHOOK',
      status: 'FAILED',
      attempts: 5,
      error: 'the webhook answered 503',
      detail: { status: 503, response: 'down for maintenance', attempt: 5 },
    });
  });
});
