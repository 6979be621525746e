import { admit, billingPeriod, categoryOfOrigin, crossedLevels, parseCaps } from './billing-rules.js';

describe('billing rules', () => {
  it('the period is the calendar month (UTC) unless the provider period holds the moment', () => {
    const at = new Date('2026-02-14T10:00:00Z');
    expect(billingPeriod(at)).toEqual({
      start: new Date('2026-02-01T00:00:00Z'),
      end: new Date('2026-03-01T00:00:00Z'),
    });
    const provider = { start: new Date('2026-02-10T00:00:00Z'), end: new Date('2026-03-10T00:00:00Z') };
    expect(billingPeriod(at, provider)).toEqual(provider);
    expect(billingPeriod(new Date('2026-03-11T00:00:00Z'), provider).start).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(billingPeriod(new Date('2026-12-31T23:59:59Z')).end).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it('an email of the API is transactional; campaigns and workflows are their own categories', () => {
    expect(categoryOfOrigin('api')).toBe('transactional');
    expect(categoryOfOrigin(undefined)).toBe('transactional');
    expect(categoryOfOrigin('campaign')).toBe('campaign');
    expect(categoryOfOrigin('workflow')).toBe('workflow');
  });

  it('notices fire when usage crosses 80% and 100% of the cap, once each', () => {
    expect(crossedLevels(7, 8, 10)).toEqual([80]);
    expect(crossedLevels(8, 9, 10)).toEqual([]);
    expect(crossedLevels(9, 10, 10)).toEqual([100]);
    expect(crossedLevels(0, 10, 10)).toEqual([80, 100]);
    expect(crossedLevels(10, 11, 10)).toEqual([]);
    expect(crossedLevels(0, 5, null)).toEqual([]);
  });

  it('refuses a send that would pass the cap, naming the category and the reset', () => {
    const period = { start: new Date('2026-02-01Z'), end: new Date('2026-03-01Z') };
    expect(admit('transactional', 1, 9, 10, period)).toEqual({ allowed: true });
    expect(admit('transactional', 2, 9, 10, period)).toEqual({
      allowed: false,
      category: 'transactional',
      cap: 10,
      used: 9,
      resetsAt: period.end,
    });
    expect(admit('campaign', 1, 0, 0, period).allowed).toBe(false);
    expect(admit('campaign', 1_000_000, 5, null, period).allowed).toBe(true);
  });

  it('validates caps: whole numbers from 0, or null; known categories only', () => {
    expect(parseCaps({ transactional: 100, campaign: null })).toEqual({ caps: { transactional: 100, campaign: null } });
    const bad = parseCaps({ transactional: -1, campaign: 1.5, workflow: '3', sms: 1 });
    expect('problems' in bad && bad.problems.map((p) => [p.field, p.code])).toEqual([
      ['transactional', 'too_small'],
      ['campaign', 'invalid_type'],
      ['workflow', 'invalid_type'],
      ['sms', 'unrecognized_keys'],
    ]);
    expect('problems' in parseCaps([])).toBe(true);
  });
});
