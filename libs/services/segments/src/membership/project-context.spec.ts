import { parseFilter } from '@herald/filters';
import { ProjectContext } from './project-context.js';
import type { Segment } from './segment.entity.js';
import { segment, where } from './segment-builders.spec-support.js';

describe('ProjectContext', () => {
  const ctx = new ProjectContext(
    'p',
    new Map([
      ['seg_recent', segment('seg_recent', where('createdAt', 'within', 7, { unit: 'days' }))],
      ['seg_plan', segment('seg_plan', where('data.plan', 'equals', 'pro'))],
      ['seg_new_plan', segment('seg_new_plan', where('data.plan', 'equals', 'pro'), { materialized: false })],
      [
        'seg_new_recent',
        segment('seg_new_recent', where('createdAt', 'within', 7, { unit: 'days' }), { materialized: false }),
      ],
      ['seg_tracked_recent', segment('seg_tracked_recent', where('createdAt', 'within', 7), { trackMembership: true })],
      ['seg_static', segment('seg_static', null, { type: 'STATIC' })],
    ]),
    {},
  );
  const timeDependent = (raw: unknown) => ctx.isTimeDependent(parseFilter(raw));

  it.each([
    ['within on a date', where('data.seenAt', 'within', 3, { unit: 'hours' }), true],
    ['olderThan', where('createdAt', 'olderThan', 30), true],
    ['triggeredWithin', where('event.login', 'triggeredWithin', 7), true],
    ['notTriggeredWithin', where('email.opened', 'notTriggeredWithin', 7), true],
    ['a count in a window', where('event.buy', 'countGreaterThan', 2, { within: { amount: 1, unit: 'months' } }), true],
    [
      'a stored dynamic segment with a window (its sweep moves its members)',
      where('segment.seg_recent', 'isMember'),
      true,
    ],
    ['a dynamic segment with a window not stored yet, inlined', where('segment.seg_new_recent', 'isMember'), true],
    ['equality', where('data.plan', 'equals', 'pro'), false],
    ['a date comparison with a fixed instant', where('createdAt', 'gt', '2024-01-01'), false],
    ['triggered ever', where('event.login', 'triggered'), false],
    ['an all-time count', where('event.buy', 'countGreaterThan', 2), false],
    [
      'a tracked segment with a window (its sweep moves its members)',
      where('segment.seg_tracked_recent', 'isMember'),
      true,
    ],
    ['a static segment', where('segment.seg_static', 'isMember'), false],
    ['a stored dynamic segment without a window', where('segment.seg_plan', 'isMember'), false],
    ['a dynamic segment without a window not stored yet', where('segment.seg_new_plan', 'isMember'), false],
  ])('the sweep re-evaluates a filter with %s: %s', (_name, raw, expected) => {
    expect(timeDependent(raw)).toBe(expected);
  });

  it('resolves stored segments (static, or dynamic and computed, tracked or not) to their memberships and dynamic ones not computed yet to their filter', () => {
    expect(ctx.resolver('seg_static')).toEqual({ kind: 'stored' });
    expect(ctx.resolver('seg_tracked_recent')).toEqual({ kind: 'stored' });
    expect(ctx.resolver('seg_plan')).toEqual({ kind: 'stored' });
    expect(ctx.resolver('seg_new_plan')?.kind).toBe('dynamic');
    expect(ctx.resolver('seg_other_project')).toBeUndefined();
  });

  describe('which stored members answer counts and pages', () => {
    const interval = 60_000;
    const now = new Date('2026-11-24T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const answers = (s: Segment) => ctx.answersFromStored(s, now, interval);

    it('a static segment always, and a computed dynamic one without a window whatever its last compute', () => {
      expect(answers(ctx.segments.get('seg_static')!)).toBe(true);
      expect(answers(ctx.segments.get('seg_plan')!)).toBe(true);
      expect(answers({ ...ctx.segments.get('seg_plan')!, membersAsOf: ago(365 * 86_400_000) })).toBe(true);
    });

    it('a dynamic segment not computed yet never, with or without a window', () => {
      expect(answers(ctx.segments.get('seg_new_plan')!)).toBe(false);
      expect(answers({ ...ctx.segments.get('seg_new_recent')!, membersAsOf: now })).toBe(false);
    });

    it.each([
      ['never evaluated whole', null, false],
      ['evaluated just now', 0, true],
      ['evaluated two sweep intervals ago', 2 * interval, true],
      ['evaluated just over two sweep intervals ago (the sweep lags)', 2 * interval + 1, false],
    ])('a computed segment with a window, %s: %s', (_name, age, expected) => {
      const s = { ...ctx.segments.get('seg_recent')!, membersAsOf: age === null ? null : ago(age) };
      expect(answers(s)).toBe(expected);
    });

    it('a segment reading a stored one with a window lags like it, so it answers only while recently swept', () => {
      const reader = segment('seg_reader', where('segment.seg_recent', 'isMember'), { membersAsOf: ago(3 * interval) });
      expect(answers(reader)).toBe(false);
      expect(answers({ ...reader, membersAsOf: ago(interval) })).toBe(true);
    });
  });

  it('follows every dynamic filter when checking, stored or not, so that a cycle through any is found', () => {
    expect(ctx.checkResolver('seg_plan')?.kind).toBe('dynamic');
    expect(ctx.checkResolver('seg_tracked_recent')?.kind).toBe('dynamic');
    expect(ctx.checkResolver('seg_static')).toEqual({ kind: 'stored' });
    expect(ctx.checkResolver('seg_other_project')).toBeUndefined();
  });
});
