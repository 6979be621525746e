import { MAX_DATA_BYTES } from './data-patch.js';
import { storedDataProblem, upsertOutcome } from './upsert-outcome.js';

describe('upsertOutcome: what a contact write makes of a contact', () => {
  it('a new contact takes subscribedIfNew unless the change sets subscribed, and reports no changed keys', () => {
    expect(upsertOutcome(undefined, { data: { plan: 'pro', note: '' } }, false)).toEqual({
      subscribed: false,
      data: { plan: 'pro' },
      changedKeys: [],
      transient: {},
    });
    expect(upsertOutcome(undefined, { subscribed: true }, false).subscribed).toBe(true);
    expect(upsertOutcome(undefined, {}, true).subscribed).toBe(true);
  });

  it('an existing contact keeps its subscription unless the change sets it, and its data is patched', () => {
    const current = { subscribed: true, data: { plan: 'free', city: 'Oslo' } };
    expect(upsertOutcome(current, { data: { plan: 'pro', city: null } }, false)).toEqual({
      subscribed: true,
      data: { plan: 'pro' },
      changedKeys: ['data.city', 'data.plan'],
      transient: {},
    });
    expect(upsertOutcome(current, { subscribed: false }, true).changedKeys).toEqual(['subscribed']);
    expect(upsertOutcome(current, { subscribed: true, data: { plan: 'free' } }, false).changedKeys).toEqual([]);
  });

  it('an address that differs once normalised is the changed key email, listed before subscribed and data', () => {
    const current = { email: 'ada@x.test', subscribed: true, data: {} };
    const outcome = upsertOutcome(current, { email: ' Bob@X.test ', subscribed: false, data: { plan: 'pro' } }, true);
    expect(outcome.email).toBe('bob@x.test');
    expect(outcome.changedKeys).toEqual(['email', 'subscribed', 'data.plan']);
    expect(upsertOutcome(current, { email: 'ADA@x.test ' }, true).changedKeys).toEqual([]);
    expect(upsertOutcome(current, {}, true)).toMatchObject({ email: 'ada@x.test', changedKeys: [] });
  });

  it('a new contact takes the normalised address of the change', () => {
    expect(upsertOutcome(undefined, { email: ' New@X.test' }, true)).toMatchObject({
      email: 'new@x.test',
      changedKeys: [],
    });
  });

  it('non-persistent values are for rendering only: returned as transient, never stored', () => {
    const outcome = upsertOutcome(undefined, { data: { coupon: { value: 'SAVE10', persistent: false } } }, false);
    expect([outcome.data, outcome.transient]).toEqual([{}, { coupon: 'SAVE10' }]);
  });

  it('a change within the data limits that makes the stored object too large carries the problem of field data', () => {
    const current = {
      subscribed: false,
      data: { a: 'x'.repeat(16_000), b: 'x'.repeat(16_000), c: 'x'.repeat(16_000) },
    };
    const outcome = upsertOutcome(current, { data: { d: 'x'.repeat(16_000), e: 'x'.repeat(16_000) } }, false);
    expect(outcome.problem).toEqual({
      field: 'data',
      message: `data must be at most ${MAX_DATA_BYTES} bytes as JSON`,
      code: 'too_big',
    });
    expect(upsertOutcome(current, { data: { d: 'x' } }, false).problem).toBeUndefined();
  });
});

describe('storedDataProblem: the size of the whole object first, then the data limits naming the path', () => {
  it('names the path of a value past a limit', () => {
    expect(storedDataProblem({ note: 'x'.repeat(20_000) })).toMatchObject({ field: 'data.note', code: 'too_big' });
    expect(storedDataProblem({ note: 'ok' })).toBeUndefined();
  });
});
