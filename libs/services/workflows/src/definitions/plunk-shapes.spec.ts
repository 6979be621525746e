import { readStepConfig, readTransitionBranch, wholeSeconds } from './plunk-shapes.js';

const fields = (r: { problems: { field: string }[] }) => r.problems.map((p) => p.field);

describe("Plunk's step shapes, normalised into the internal model", () => {
  it('a single CONDITION {field, operator, value} becomes a filter group of that one condition, its field mapped onto the filter language', () => {
    const cases: [string, string][] = [
      ['data.plan', 'data.plan'],
      ['contact.data.plan', 'data.plan'],
      ['contact.email', 'email'],
      ['contact.subscribed', 'subscribed'],
      ['event.plan', 'event.plan'],
      ['workflow.plan', 'event.plan'],
    ];
    for (const [plunk, herald] of cases) {
      const value = plunk === 'contact.subscribed' ? true : 'pro';
      expect(readStepConfig('CONDITION', { field: plunk, operator: 'equals', value })).toEqual({
        config: { operator: 'AND', conditions: [{ field: herald, operator: 'equals', value }] },
        problems: [],
      });
    }
  });

  it('every Plunk operator has its equivalent; exists and notExists drop the value Plunk ignores', () => {
    for (const operator of ['equals', 'notEquals', 'contains', 'notContains'])
      expect(fields(readStepConfig('CONDITION', { field: 'data.plan', operator, value: 'pro' }))).toEqual([]);
    for (const operator of ['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual'])
      expect(fields(readStepConfig('CONDITION', { field: 'data.age', operator, value: 18 }))).toEqual([]);
    expect(readStepConfig('CONDITION', { field: 'event.coupon', operator: 'exists', value: '' }).config).toEqual({
      operator: 'AND',
      conditions: [{ field: 'event.coupon', operator: 'exists' }],
    });
    expect(fields(readStepConfig('CONDITION', { field: 'data.x', operator: 'notExists' }))).toEqual([]);
  });

  it('a field or operator with no equivalent is a field error on the field as written; so is a value the filter language refuses', () => {
    expect(readStepConfig('CONDITION', { field: 'contact.id', operator: 'equals', value: 'x' }).problems).toEqual([
      { field: 'config.field', code: 'STEP_CONFIG_INVALID', message: expect.stringMatching(/no equivalent/) },
    ]);
    expect(fields(readStepConfig('CONDITION', { field: 'context.x', operator: 'equals', value: 1 }))).toEqual([
      'config.field',
    ]);
    expect(fields(readStepConfig('CONDITION', { field: 'data.plan', operator: 'triggered' }))).toEqual([
      'config.operator',
    ]);
    // contains on a boolean: the filter language's refusal, reported on Plunk's field
    expect(
      fields(readStepConfig('CONDITION', { field: 'contact.subscribed', operator: 'contains', value: 'x' })),
    ).toEqual(['config.operator']);
    expect(fields(readStepConfig('CONDITION', { field: 'data.age', operator: 'greaterThan', value: 'old' }))).toEqual([
      'config.value',
    ]);
    expect(
      fields(readStepConfig('CONDITION', { field: 'data.plan', operator: 'equals', value: 'x', units: 1 })),
    ).toEqual(['config.units']);
  });

  it('a multi-branch CONDITION becomes {branches: [{id, name, filter}]}, each branch one condition on the shared field', () => {
    const r = readStepConfig('CONDITION', {
      mode: 'multi',
      field: 'event.plan',
      branches: [
        { id: 'b-pro', name: 'Pro', operator: 'equals', value: 'pro' },
        { id: 'b-team', name: 'Team', operator: 'contains', value: 'team' },
      ],
    });
    expect(r).toEqual({
      config: {
        branches: [
          {
            id: 'b-pro',
            name: 'Pro',
            filter: { operator: 'AND', conditions: [{ field: 'event.plan', operator: 'equals', value: 'pro' }] },
          },
          {
            id: 'b-team',
            name: 'Team',
            filter: { operator: 'AND', conditions: [{ field: 'event.plan', operator: 'contains', value: 'team' }] },
          },
        ],
      },
      problems: [],
    });
    // the internal form is accepted as it is (what GET answers can be sent back)
    expect(readStepConfig('CONDITION', r.config)).toEqual(r);
  });

  it('a multi-branch CONDITION needs 1 to 20 branches with distinct ids other than default; problems are on the fields as written', () => {
    const branch = (id: string, extra: Record<string, unknown> = {}) => ({
      id,
      name: id,
      operator: 'equals',
      value: 1,
      ...extra,
    });
    const multi = (branches: unknown, extra: Record<string, unknown> = {}) =>
      fields(readStepConfig('CONDITION', { mode: 'multi', field: 'data.n', branches, ...extra }));
    expect(multi([])).toEqual(['config.branches']);
    expect(multi(Array.from({ length: 21 }, (_, i) => branch(`b${i}`)))).toEqual(['config.branches']);
    expect(multi([branch('a'), branch('a')])).toEqual(['config.branches[1].id']);
    expect(multi([branch('default')])).toEqual(['config.branches[0].id']);
    expect(multi([branch('a', { operator: 'in' })])).toEqual(['config.branches[0].operator']);
    expect(multi([branch('a', { value: 'x' }), branch('b')], { field: 'data.n' })).toEqual([]);
    expect(multi([branch('a', { operator: 'greaterThan', value: 'x' })])).toEqual(['config.branches[0].value']);
    expect(multi([branch('a'), branch('b')], { field: 'segment.x' })).toEqual(['config.field']);
    expect(multi([branch('a')], { mode: 'switch' })).toEqual(['config.mode']);
    expect(multi([branch('a', { color: 'red' })])).toEqual(['config.branches[0].color']);
  });

  it('UPDATE_CONTACT {updates, subscriptionAction} becomes {data, subscribed}, with at least one effective change', () => {
    expect(readStepConfig('UPDATE_CONTACT', { updates: { plan: 'pro' }, subscriptionAction: 'none' })).toEqual({
      config: { data: { plan: 'pro' } },
      problems: [],
    });
    expect(readStepConfig('UPDATE_CONTACT', { updates: {}, subscriptionAction: 'unsubscribe' }).config).toEqual({
      subscribed: false,
    });
    expect(readStepConfig('UPDATE_CONTACT', { subscriptionAction: 'subscribe' }).config).toEqual({ subscribed: true });
    expect(fields(readStepConfig('UPDATE_CONTACT', { updates: {}, subscriptionAction: 'none' }))).toEqual([
      'config.updates',
    ]);
    expect(fields(readStepConfig('UPDATE_CONTACT', { updates: [1] }))).toEqual(['config.updates']);
    expect(fields(readStepConfig('UPDATE_CONTACT', { subscriptionAction: 'pause' }))).toEqual([
      'config.subscriptionAction',
    ]);
    expect(fields(readStepConfig('UPDATE_CONTACT', { updates: { a: 1 }, data: { b: 2 } }))).toEqual(['config.data']);
    expect(fields(readStepConfig('UPDATE_CONTACT', { updates: { big: 'x'.repeat(10_001) } }))).toEqual([
      'config.updates',
    ]);
  });

  it("a step's top-level templateId goes into a SEND_EMAIL's config; on another type, or disagreeing with config.templateId, it is a field error", () => {
    expect(readStepConfig('SEND_EMAIL', {}, 'tpl_1')).toEqual({ config: { templateId: 'tpl_1' }, problems: [] });
    expect(readStepConfig('SEND_EMAIL', { templateId: 'tpl_1' }, 'tpl_1').problems).toEqual([]);
    expect(readStepConfig('SEND_EMAIL', { templateId: 'tpl_1' }, null).config).toEqual({ templateId: 'tpl_1' });
    expect(fields(readStepConfig('SEND_EMAIL', { templateId: 'tpl_2' }, 'tpl_1'))).toEqual(['templateId']);
    expect(fields(readStepConfig('EXIT', {}, 'tpl_1'))).toEqual(['templateId']);
  });

  it("SEND_EMAIL recipient CUSTOM becomes Herald's to (the address as written); CONTACT is the contact, no to", () => {
    expect(
      readStepConfig('SEND_EMAIL', { recipient: { type: 'CUSTOM', customEmail: 'boss@example.com' } }, 'tpl_1'),
    ).toEqual({ config: { templateId: 'tpl_1', to: 'boss@example.com' }, problems: [] });
    expect(readStepConfig('SEND_EMAIL', { templateId: 'tpl_1', recipient: { type: 'CONTACT' } })).toEqual({
      config: { templateId: 'tpl_1' },
      problems: [],
    });
    // Plunk accepts a customEmail beside CONTACT and ignores it
    expect(
      readStepConfig('SEND_EMAIL', { templateId: 't', recipient: { type: 'CONTACT', customEmail: 'x@example.com' } })
        .config,
    ).toEqual({ templateId: 't' });
    // what GET answers can be sent back
    const stored = readStepConfig('SEND_EMAIL', {
      templateId: 't',
      recipient: { type: 'CUSTOM', customEmail: 'a@b.co' },
    });
    expect(readStepConfig('SEND_EMAIL', stored.config)).toEqual(stored);
  });

  it('a recipient is {type: CONTACT | CUSTOM, customEmail?}: CUSTOM needs an address (never a template), and recipient with to is a field error', () => {
    const recipient = (r: unknown, extra: Record<string, unknown> = {}) =>
      readStepConfig('SEND_EMAIL', { templateId: 't', recipient: r, ...extra }).problems;
    expect(recipient({ type: 'CUSTOM' })).toEqual([
      {
        field: 'config.recipient.customEmail',
        code: 'STEP_CONFIG_INVALID',
        message: expect.stringMatching(/required/),
      },
    ]);
    expect(fields({ problems: recipient({ type: 'CUSTOM', customEmail: 'not an address' }) })).toEqual([
      'config.recipient.customEmail',
    ]);
    expect(fields({ problems: recipient({ type: 'CONTACT', customEmail: 'nope' }) })).toEqual([
      'config.recipient.customEmail',
    ]);
    expect(fields({ problems: recipient({ type: 'CUSTOM', customEmail: '{{x}}@example.com' }) })).toEqual([
      'config.recipient.customEmail',
    ]);
    expect(fields({ problems: recipient({ type: 'MANAGER' }) })).toEqual(['config.recipient.type']);
    expect(fields({ problems: recipient('CONTACT') })).toEqual(['config.recipient']);
    expect(fields({ problems: recipient({ type: 'CONTACT', name: 'x' }) })).toEqual(['config.recipient.name']);
    expect(fields({ problems: recipient({ type: 'CUSTOM', customEmail: 'a@b.co' }, { to: 'c@d.co' }) })).toEqual([
      'config.recipient',
    ]);
  });

  it('a DELAY of a fraction of minutes, hours or days is stored as the whole amount of the largest unit that holds it exactly', () => {
    const delay = (amount: number, unit: string) => readStepConfig('DELAY', { amount, unit });
    expect(delay(1.5, 'hours')).toEqual({ config: { amount: 90, unit: 'minutes' }, problems: [] });
    expect(delay(1.5, 'days').config).toEqual({ amount: 36, unit: 'hours' });
    expect(delay(0.5, 'minutes').config).toEqual({ amount: 30, unit: 'seconds' });
    expect(delay(0.01, 'days').config).toEqual({ amount: 864, unit: 'seconds' });
    // as written in decimal, not as the double multiplies: 1.15 days × 86400 is 99359.99999999999
    expect(delay(1.15, 'days').config).toEqual({ amount: 1656, unit: 'minutes' });
    expect(delay(4.35, 'hours').config).toEqual({ amount: 261, unit: 'minutes' });
    // a whole amount is left as written
    expect(delay(60, 'minutes').config).toEqual({ amount: 60, unit: 'minutes' });
  });

  it('a DELAY that is no whole number of seconds, over a year, or a fraction of seconds or weeks is a field error on config.amount', () => {
    const delay = (amount: number, unit: string) => fields(readStepConfig('DELAY', { amount, unit }));
    expect(readStepConfig('DELAY', { amount: 0.001, unit: 'minutes' }).problems).toEqual([
      {
        field: 'config.amount',
        code: 'STEP_CONFIG_INVALID',
        message: expect.stringMatching(/whole number of seconds/),
      },
    ]);
    expect(delay(1.0001, 'hours')).toEqual(['config.amount']);
    expect(delay(365.5, 'days')).toEqual(['config.amount']);
    expect(delay(364.5, 'days')).toEqual([]);
    expect(delay(1.5, 'seconds')).toEqual(['config.amount']);
    expect(delay(1.5, 'weeks')).toEqual(['config.amount']);
    expect(delay(-1.5, 'hours')).toEqual(['config.amount']);
    expect(wholeSeconds(2.5e-3, 'days')).toBe(216n);
    expect(wholeSeconds(1e-7, 'days')).toBeUndefined();
  });

  it("Herald's own shapes are unchanged and stay strict", () => {
    const group = { operator: 'AND', conditions: [{ field: 'data.age', operator: 'gte', value: 18 }] };
    expect(readStepConfig('CONDITION', group)).toEqual({ config: group, problems: [] });
    expect(readStepConfig('UPDATE_CONTACT', { data: { a: 1 } })).toEqual({ config: { data: { a: 1 } }, problems: [] });
    expect(fields(readStepConfig('UPDATE_CONTACT', { data: { a: 1 }, subscribed: 'yes' }))).toEqual([
      'config.subscribed',
    ]);
    expect(fields(readStepConfig('SEND_EMAIL', { templateId: 't', subjet: 'x' }))).toEqual(['config.subjet']);
  });
});

describe("Plunk's transition tags", () => {
  it('condition.branch names the branch; {fallback: true} is the timeout; none named leaves it to the step (a WAIT_FOR_EVENT: event)', () => {
    expect(readTransitionBranch({ condition: { branch: 'no' } })).toEqual({
      branch: 'no',
      field: 'condition.branch',
      problems: [],
    });
    expect(readTransitionBranch({ condition: { fallback: true } })).toMatchObject({ branch: 'timeout', problems: [] });
    expect(readTransitionBranch({ condition: { branch: 'b-pro' } }).branch).toBe('b-pro');
    expect(readTransitionBranch({})).toEqual({ field: 'branch', problems: [] });
    expect(readTransitionBranch({ condition: null })).toEqual({ field: 'branch', problems: [] });
    expect(readTransitionBranch({ branch: 'yes' })).toEqual({ branch: 'yes', field: 'branch', problems: [] });
  });

  it('branch and condition.branch that agree are one branch; that disagree, a field error', () => {
    expect(readTransitionBranch({ branch: 'yes', condition: { branch: 'yes' } })).toMatchObject({
      branch: 'yes',
      problems: [],
    });
    expect(fields(readTransitionBranch({ branch: 'yes', condition: { branch: 'no' } }))).toEqual(['condition.branch']);
    expect(fields(readTransitionBranch({ branch: 'event', condition: { fallback: true } }))).toEqual([
      'condition.fallback',
    ]);
  });

  it('a condition is {branch} or {fallback: true}, nothing else', () => {
    expect(fields(readTransitionBranch({ condition: 'yes' }))).toEqual(['condition']);
    expect(fields(readTransitionBranch({ condition: { branch: 'yes', when: 1 } }))).toEqual(['condition.when']);
    expect(fields(readTransitionBranch({ condition: { fallback: false } }))).toEqual(['condition.fallback']);
    expect(fields(readTransitionBranch({ condition: { branch: '' } }))).toEqual(['condition.branch']);
    expect(fields(readTransitionBranch({ condition: { branch: 'no', fallback: true } }))).toEqual(['condition.branch']);
  });
});
