import { DomainError } from '@herald/core';
import type { CampaignStatus } from './campaign.entity.js';
import {
  assertCancellable,
  assertDeletable,
  assertEditable,
  isActive,
  parseScheduledFor,
  sendTarget,
} from './campaign-state.js';

const ALL: CampaignStatus[] = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'];
const kindOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof DomainError ? err.kind : 'other';
  }
};

describe('campaign state machine', () => {
  it('only SCHEDULED and SENDING campaigns are active', () => {
    expect(ALL.filter(isActive)).toEqual(['SCHEDULED', 'SENDING']);
  });

  it('PUT replaces a DRAFT or SCHEDULED campaign, any other status is a 409', () => {
    expect(ALL.map((s) => [s, kindOf(() => assertEditable(s))])).toEqual([
      ['DRAFT', null],
      ['SCHEDULED', null],
      ['SENDING', 'conflict'],
      ['SENT', 'conflict'],
      ['CANCELLED', 'conflict'],
    ]);
  });

  it('DELETE is a 409 while the campaign is SCHEDULED or SENDING', () => {
    expect(ALL.filter((s) => kindOf(() => assertDeletable(s)) === 'conflict')).toEqual(['SCHEDULED', 'SENDING']);
  });

  it('send takes a DRAFT or SCHEDULED campaign to SENDING, or SCHEDULED with a time; SENDING, SENT and CANCELLED are a 409', () => {
    const at = new Date(Date.now() + 60_000);
    expect(sendTarget('DRAFT', undefined)).toBe('SENDING');
    expect(sendTarget('DRAFT', at)).toBe('SCHEDULED');
    expect(sendTarget('SCHEDULED', at)).toBe('SCHEDULED');
    expect(sendTarget('SCHEDULED', undefined)).toBe('SENDING');
    for (const s of ['SENDING', 'SENT', 'CANCELLED'] as const)
      expect(kindOf(() => sendTarget(s, undefined))).toBe('conflict');
  });

  it('cancel applies to SCHEDULED and SENDING only', () => {
    expect(ALL.filter((s) => kindOf(() => assertCancellable(s)) === null)).toEqual(['SCHEDULED', 'SENDING']);
  });

  it('scheduledFor must be a future ISO 8601 instant with a time zone; past or unparseable is a 422', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(parseScheduledFor('2030-01-01T00:00:05Z', now).toISOString()).toBe('2030-01-01T00:00:05.000Z');
    expect(parseScheduledFor('2030-01-01T02:00:00+01:00', now).toISOString()).toBe('2030-01-01T01:00:00.000Z');
    for (const bad of [
      '2029-12-31T23:59:59Z',
      '2030-01-01T00:00:00Z',
      'tomorrow',
      '2030-01-02',
      '2030-01-02T10:00:00',
      42,
      null,
    ])
      expect(kindOf(() => parseScheduledFor(bad, now))).toBe('invalid');
  });
});
