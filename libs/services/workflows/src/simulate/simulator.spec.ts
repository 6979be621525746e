import { createTemplateRenderPool } from '@herald/templating';
import type { Graph } from '../definitions/graph.js';
import { simulate } from './simulator.js';

const graph: Graph = {
  steps: [
    { id: 'd', type: 'DELAY', name: 'wait a day', position: 0, config: { amount: 1, unit: 'days' } },
    {
      id: 'c',
      type: 'CONDITION',
      name: 'pro?',
      position: 1,
      config: {
        operator: 'AND',
        conditions: [
          { field: 'event.plan', operator: 'equals', value: 'pro' },
          { field: 'data.age', operator: 'gte', value: 18 },
        ],
      },
    },
    { id: 'y', type: 'SEND_EMAIL', name: 'welcome pro', position: 2, config: { templateId: 'tpl_pro' } },
    { id: 'u', type: 'UPDATE_CONTACT', name: 'mark', position: 3, config: { data: { onboarded: true } } },
    {
      id: 'h',
      type: 'WEBHOOK',
      name: 'tell crm',
      position: 4,
      config: { url: 'https://crm.example/{{ contact.email }}', method: 'POST' },
    },
    { id: 'n', type: 'EXIT', name: 'not pro', position: 5, config: { reason: 'free plan' } },
  ],
  transitions: [
    { id: 't1', fromStepId: 'd', toStepId: 'c', branch: '' },
    { id: 't2', fromStepId: 'c', toStepId: 'y', branch: 'yes' },
    { id: 't3', fromStepId: 'c', toStepId: 'n', branch: 'no' },
    { id: 't4', fromStepId: 'y', toStepId: 'u', branch: '' },
    { id: 't5', fromStepId: 'u', toStepId: 'h', branch: '' },
  ],
};

const base = {
  graph,
  workflowName: 'Onboarding',
  contact: {
    id: null,
    email: 'ada@example.com',
    subscribed: true,
    data: { age: 30 },
    createdAt: new Date(0),
    updatedAt: new Date(0),
  },
  context: {},
  start: new Date('2026-01-01T00:00:00.000Z'),
  templates: new Map([['tpl_pro', { subject: 'Welcome, {{ email }}', type: 'marketing' as const }]]),
};

describe('the dry run on a virtual clock', () => {
  /** On the event loop: this file proves what the dry run answers; simulator.int.spec.ts where it renders. */
  const inline = createTemplateRenderPool(0);
  afterAll(() => inline.close());

  it('takes the yes branch with the condition values, lists the email, update and webhook, and advances the clock by the DELAY', async () => {
    const r = await simulate({ ...base, event: { name: 'signup', data: { plan: 'pro' } } }, inline);
    expect(r.path.map((p) => [p.stepId, p.outcome, p.at])).toEqual([
      ['d', 'delayed', '2026-01-02T00:00:00.000Z'],
      ['c', 'yes', '2026-01-02T00:00:00.000Z'],
      ['y', 'sent', '2026-01-02T00:00:00.000Z'],
      ['u', 'updated', '2026-01-02T00:00:00.000Z'],
      ['h', 'called', '2026-01-02T00:00:00.000Z'],
    ]);
    expect(r.path[1]!.why).toEqual({ values: { 'event.plan': 'pro', 'data.age': 30 } });
    expect(r.emails).toEqual([
      { stepId: 'y', to: 'ada@example.com', templateId: 'tpl_pro', subject: 'Welcome, ada@example.com' },
    ]);
    expect(r.contactUpdates).toEqual([{ stepId: 'u', data: { onboarded: true } }]);
    expect(r.webhooks[0]).toMatchObject({ method: 'POST', url: 'https://crm.example/ada@example.com' });
    expect(r.status).toBe('COMPLETED');
  });

  it('takes the no branch and ends with the EXIT reason', async () => {
    const r = await simulate({ ...base, event: { name: 'signup', data: { plan: 'free' } } }, inline);
    expect(r.path.map((p) => p.outcome)).toEqual(['delayed', 'no', 'exited']);
    expect(r.status).toBe('EXITED');
    expect(r.emails).toEqual([]);
  });

  it('a marketing email to an unsubscribed contact is shown as skipped', async () => {
    const r = await simulate(
      {
        ...base,
        contact: { ...base.contact, subscribed: false },
        event: { name: 'signup', data: { plan: 'pro' } },
      },
      inline,
    );
    expect(r.emails[0]).toMatchObject({ skipped: 'unsubscribed' });
  });

  it('a WAIT_FOR_EVENT without a timeout ends the dry run there, WAITING (no event arrives in a dry run); with one it times out', async () => {
    const g = (config: Record<string, unknown>): Graph => ({
      steps: [
        { id: 'd', type: 'DELAY', name: 'an hour', position: 0, config: { amount: 1, unit: 'hours' } },
        { id: 'w', type: 'WAIT_FOR_EVENT', name: 'paid?', position: 1, config },
        { id: 'x', type: 'EXIT', name: 'done', position: 2, config: {} },
      ],
      transitions: [
        { id: 't1', fromStepId: 'd', toStepId: 'w', branch: '' },
        { id: 't2', fromStepId: 'w', toStepId: 'x', branch: 'timeout' },
      ],
    });
    const event = { name: 'signup', data: {} };
    const forever = await simulate({ ...base, graph: g({ eventName: 'paid' }), event }, inline);
    expect([forever.status, forever.endedAt, forever.path.map((p) => [p.stepId, p.outcome, p.at])]).toEqual([
      'WAITING',
      '2026-01-01T01:00:00.000Z',
      [
        ['d', 'delayed', '2026-01-01T01:00:00.000Z'],
        ['w', 'waiting', '2026-01-01T01:00:00.000Z'],
      ],
    ]);
    expect(forever.path[1]!.why).toEqual({ waitedFor: 'paid', seconds: null });
    const timed = await simulate({ ...base, graph: g({ eventName: 'paid', timeout: 60 }), event }, inline);
    expect([timed.status, timed.path.map((p) => p.outcome)]).toEqual(['EXITED', ['delayed', 'timeout', 'exited']]);
  });

  it('a multi-branch CONDITION takes the first matching branch, else default; a branch without a transition ends the run COMPLETED there', async () => {
    const on = (value: string) => ({
      operator: 'AND',
      conditions: [{ field: 'event.plan', operator: 'equals', value }],
    });
    const g: Graph = {
      steps: [
        {
          id: 'm',
          type: 'CONDITION',
          name: 'which plan',
          position: 0,
          config: {
            branches: [
              { id: 'b-pro', name: 'Pro', filter: on('pro') },
              { id: 'b-team', name: 'Team', filter: on('team') },
            ],
          },
        },
        { id: 'p', type: 'UPDATE_CONTACT', name: 'pro', position: 1, config: { data: { tier: 'pro' } } },
        { id: 'x', type: 'EXIT', name: 'other', position: 2, config: { reason: 'other plan' } },
      ],
      transitions: [
        { id: 't1', fromStepId: 'm', toStepId: 'p', branch: 'b-pro' },
        { id: 't2', fromStepId: 'm', toStepId: 'x', branch: 'default' },
      ],
    };
    const run = (plan: string) => simulate({ ...base, graph: g, event: { name: 'signup', data: { plan } } }, inline);
    const pro = await run('pro');
    expect([pro.path.map((p) => [p.stepId, p.outcome]), pro.status]).toEqual([
      [
        ['m', 'b-pro'],
        ['p', 'updated'],
      ],
      'COMPLETED',
    ]);
    expect(pro.path[0]!.why).toEqual({ values: { 'event.plan': 'pro' }, matched: 'Pro' });
    const team = await run('team');
    expect([team.path.map((p) => [p.stepId, p.outcome]), team.status]).toEqual([[['m', 'b-team']], 'COMPLETED']);
    const other = await run('free');
    expect([other.path.map((p) => [p.stepId, p.outcome]), other.status]).toEqual([
      [
        ['m', 'default'],
        ['x', 'exited'],
      ],
      'EXITED',
    ]);
  });
});
