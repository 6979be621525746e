import { DomainError, type HeraldRuntime } from '@herald/core';
import { createTemplateRenderPool, type TemplateRenderPool } from '@herald/templating';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntityManager } from 'typeorm';
import type { ContactsClient, SendingClient } from './clients/internal-clients.js';
import type { Graph, GraphStep } from './definitions/graph.js';
import type { WorkflowExecution, WorkflowStepRun } from './executions/execution.entity.js';
import { StepEffects, type StepTask } from './runtime/step-effects.js';
import { simulate, type SimulationInput } from './simulate/simulator.js';
import type { WorkflowsSettings } from './workflows.settings.js';

/** The render thread as the built service runs it (`npm test` builds dist/, or HERALD_DIST, first). */
const BUILT_WORKER = path.join(
  fileURLToPath(new URL('../../../../', import.meta.url)),
  process.env.HERALD_DIST ?? 'dist',
  'libs/templating/src/render.worker.js',
);

/** Runs until the renderer's work limit stops it: 2000 × 2000 steps over the list `xs` names (libs/templating's hostile templates). */
const hostile = (xs: string) => `{% for a in ${xs} %}{% for b in ${xs} %}{% increment n %}{% endfor %}{% endfor %}`;
const xs = Array.from({ length: 2000 }, (_, i) => i);

const step = (id: string, type: GraphStep['type'], config: Record<string, unknown>, position = 0): GraphStep =>
  ({ id, type, name: id, position, config }) as GraphStep;

/** A dry run of one graph for a contact whose data holds `xs` (every template sees the contact's data keys). */
const dryRun = (graph: Graph): SimulationInput => ({
  graph,
  workflowName: 'Onboarding',
  contact: {
    id: 'cnt_1',
    email: 'ada@example.com',
    subscribed: true,
    data: { xs, plan: 'pro' },
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    updatedAt: new Date('2026-01-01T00:00:00.000Z'),
  },
  event: { name: 'signup', data: { source: 'ads' } },
  context: { step: 1 },
  start: new Date('2026-01-01T00:00:00.000Z'),
  templates: new Map([['tpl_1', { subject: 'Welcome, {{ email }} ({{ plan }})', type: 'marketing' as const }]]),
});

const hostileWebhook: Graph = {
  steps: [step('h', 'WEBHOOK', { url: 'https://crm.example/hook', body: hostile('xs') })],
  transitions: [],
};

/** Counts turns of the event loop (setImmediate) until what `start` began settles; returns them with its answer or rejection. */
async function turnsWhile<T>(start: () => Promise<T>): Promise<{ ticks: number; value?: T; error?: unknown }> {
  let ticks = 0;
  let running = true;
  const tick = (): void => {
    ticks++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const settled = await start().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  running = false;
  return { ticks, ...settled };
}

describe("workflows' Liquid in render threads (RENDER_THREADS)", () => {
  let threads: TemplateRenderPool;
  let inline: TemplateRenderPool;
  beforeAll(() => {
    expect(existsSync(BUILT_WORKER)).toBe(true);
    threads = createTemplateRenderPool(1, BUILT_WORKER);
    inline = createTemplateRenderPool(0);
  });
  afterAll(async () => {
    await threads.close();
    await inline.close();
  });

  it('the dry run answers the same in a render thread as on the event loop: recipient, subject, webhook URL and body', async () => {
    const graph: Graph = {
      steps: [
        step('e', 'SEND_EMAIL', { templateId: 'tpl_1', to: ' {{ plan }}@example.com ' }, 0),
        step('h', 'WEBHOOK', { url: 'https://crm.example/{{ contact.id }}', body: { who: '{{ email }}' } }, 1),
        step('g', 'WEBHOOK', { url: 'https://crm.example/{{ event.source }}', method: 'GET', body: 'x' }, 2),
      ],
      transitions: [
        { id: 't1', fromStepId: 'e', toStepId: 'h', branch: '' },
        { id: 't2', fromStepId: 'h', toStepId: 'g', branch: '' },
      ],
    };
    const [offLoop, onLoop] = await Promise.all([simulate(dryRun(graph), threads), simulate(dryRun(graph), inline)]);
    expect(offLoop).toEqual(onLoop);
    expect(offLoop.emails).toEqual([
      { stepId: 'e', to: 'pro@example.com', templateId: 'tpl_1', subject: 'Welcome, ada@example.com (pro)' },
    ]);
    expect(offLoop.webhooks).toEqual([
      { stepId: 'h', method: 'POST', url: 'https://crm.example/cnt_1', body: '{"who":"ada@example.com"}' },
      { stepId: 'g', method: 'GET', url: 'https://crm.example/ads', body: null },
    ]);
  });

  it('a hostile template in the dry run holds a render thread, not the event loop: it keeps turning while the render runs, and the dry run answers a 422 naming the step', async () => {
    const { ticks, error } = await turnsWhile(() => simulate(dryRun(hostileWebhook), threads));
    expect(DomainError.is(error, 'VALIDATION_ERROR')).toBe(true);
    expect((error as DomainError).details?.errors?.[0]).toMatchObject({ field: 'steps.h', code: 'render_failed' });
    expect((error as DomainError).details?.errors?.[0]?.message).toMatch(/exceeded the (work|time) limit/);
    expect(ticks).toBeGreaterThan(1);
  });

  it('with RENDER_THREADS=0 the same dry run holds the event loop until the render ends (what the threads prevent)', async () => {
    let ticks = 0;
    setImmediate(() => ticks++);
    const run = simulate(dryRun(hostileWebhook), inline);
    expect(ticks).toBe(0);
    await expect(run).rejects.toBeInstanceOf(DomainError);
  });

  describe('WEBHOOK steps', () => {
    let server: Server;
    let received: { url: string; headers: IncomingHttpHeaders; body: string }[];
    let base: string;
    const effects = (pool: TemplateRenderPool) =>
      new StepEffects(
        {} as ContactsClient,
        {} as SendingClient,
        { WORKFLOW_WEBHOOK_SECRET: 'wfsec', WORKFLOW_WEBHOOK_ALLOW: '127.0.0.1' } as WorkflowsSettings,
        { mode: 'standalone', internalJwtSecret: 'x'.repeat(32) } as HeraldRuntime,
        pool,
      );
    const task = (config: Record<string, unknown>): StepTask => ({
      run: { id: 'wfr_render_1', attempts: 0 } as WorkflowStepRun,
      execution: {
        id: 'wfe_1',
        projectId: 'prj_render',
        workflowId: 'wf_1',
        contactId: 'cnt_1',
        email: 'ada@example.com',
        event: { plan: 'pro', xs },
        context: { step: 2 },
      } as unknown as WorkflowExecution,
      step: step('stp_hook', 'WEBHOOK', config),
      workflowName: 'Onboarding',
    });
    const run = async (pool: TemplateRenderPool, t: StepTask) =>
      (await effects(pool).runAll([t], {} as EntityManager)).get(t.run.id)!;

    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push({ url: req.url ?? '', headers: req.headers, body });
          res.end('ok');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    beforeEach(() => (received = []));
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("a WEBHOOK step's URL, headers and body render in one render-thread task, each where it belongs", async () => {
      const outcome = await run(
        threads,
        task({
          url: `${base}/hook/{{ event.plan }}`,
          headers: { 'X-Plan': '{{ event.plan }}', 'X-Step': 'step {{ context.step }}' },
          body: { who: '{{ email }}', workflow: '{{ workflow.name }}' },
        }),
      );
      expect(outcome).toMatchObject({ kind: 'next', outcome: 'called', detail: { status: 200 } });
      expect(received).toHaveLength(1);
      expect(received[0]!.url).toBe('/hook/pro');
      expect(received[0]!.headers).toMatchObject({ 'x-plan': 'pro', 'x-step': 'step 2' });
      expect(JSON.parse(received[0]!.body)).toEqual({ who: 'ada@example.com', workflow: 'Onboarding' });
    });

    it('a hostile template in a WEBHOOK step holds a render thread, not the event loop, and the step is retried as before, with no request made', async () => {
      const t = task({ url: `${base}/hook`, body: hostile('event.xs') });
      const { ticks, value: offLoop } = await turnsWhile(() => run(threads, t));
      expect(ticks).toBeGreaterThan(1);
      // the same outcome as on the event loop; which of the two limits stops it first (a million
      // steps or 250 ms) depends on the machine and on how warm each isolate's code is, so either
      const limit = expect.stringMatching(/exceeded the (work|time) limit/) as unknown;
      expect(offLoop).toEqual({ kind: 'retry', delayMs: 5000, error: limit });
      expect(await run(inline, t)).toEqual({ kind: 'retry', delayMs: 5000, error: limit });
      expect(received).toEqual([]);
    });
  });
});
