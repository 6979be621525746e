import { addsUp, outcomeOf, planRows, statsOf, stopReasonOf, type LedgerCounts } from './ledger-rules.js';

const counts = (over: Partial<LedgerCounts>): LedgerCounts => ({
  recipients: 0,
  pending: 0,
  queued: 0,
  sent: 0,
  failed: 0,
  skipped: 0,
  unsubscribed: 0,
  suppressed: 0,
  duplicate: 0,
  invalidAddress: 0,
  cancelled: 0,
  billingLimit: 0,
  sendingSuspended: 0,
  delivered: 0,
  opened: 0,
  clicked: 0,
  bounced: 0,
  complained: 0,
  unsubscribedByLink: 0,
  ...over,
});

describe('ledger rules', () => {
  it('gives every audience entry exactly one row: the first of an address pending, a later one a skipped duplicate, an unsubscribed contact skipped unsubscribed', () => {
    const rows = planRows(
      [
        { id: 'c1', email: 'Ann@Example.com' },
        { id: 'c2', email: 'ann@example.com ' },
        { id: 'c3', email: 'not-an-address' },
        { id: 'c4', email: 'bob@example.com' },
        { id: 'c5', email: 'cy@example.com', subscribed: false },
      ],
      new Map(),
    );
    expect(rows.map((r) => [r.contactId, r.email, r.status, r.reason])).toEqual([
      ['c1', 'ann@example.com', 'pending', null],
      ['c2', 'ann@example.com', 'skipped', 'duplicate'],
      ['c3', 'not-an-address', 'skipped', 'invalid_address'],
      ['c4', 'bob@example.com', 'pending', null],
      ['c5', 'cy@example.com', 'skipped', 'unsubscribed'],
    ]);
  });

  it('an address already in the ledger under another contact is a duplicate; under the same contact (a page read again) it is not', () => {
    const taken = new Map([['ann@example.com', 'c1']]);
    expect(planRows([{ id: 'c9', email: 'ann@example.com' }], taken)[0]!.reason).toBe('duplicate');
    expect(planRows([{ id: 'c1', email: 'ann@example.com' }], taken)[0]!.status).toBe('pending');
  });

  it('maps intake answers: queued and a duplicate of a queued key are queued, skipped keeps its reason, a duplicate of a skipped key is skipped', () => {
    expect(outcomeOf({ status: 'queued', emailId: 'e1' })).toEqual({ status: 'queued', reason: null, emailId: 'e1' });
    expect(outcomeOf({ status: 'duplicate', emailId: 'e1', firstStatus: 'queued' }).status).toBe('queued');
    expect(outcomeOf({ status: 'skipped', reason: 'unsubscribed' })).toMatchObject({
      status: 'skipped',
      reason: 'unsubscribed',
    });
    expect(
      outcomeOf({ status: 'duplicate', emailId: 'e1', firstStatus: 'skipped', reason: 'suppressed' }),
    ).toMatchObject({
      status: 'skipped',
      reason: 'suppressed',
    });
  });

  it('recipients = sent + skipped + failed once nothing is pending or queued, and the reasons add up to skipped', () => {
    const done = counts({ recipients: 10, sent: 6, failed: 1, skipped: 3, suppressed: 1, duplicate: 1, cancelled: 1 });
    expect(addsUp(done)).toBe(true);
    expect(statsOf(done).complete).toBe(true);
    expect(addsUp({ ...done, sent: 5 })).toBe(false);
    expect(addsUp({ ...done, duplicate: 0 })).toBe(false);
    expect(statsOf({ ...done, sent: 5, queued: 1 }).complete).toBe(false);
  });

  it('rows left unsent by a cap (billing_limit) or a suspension (sending_suspended) count among the skip reasons that add up to skipped', () => {
    const stopped = counts({ recipients: 9, sent: 4, skipped: 5, billingLimit: 2, sendingSuspended: 3 });
    expect(addsUp(stopped)).toBe(true);
    expect(addsUp({ ...stopped, sendingSuspended: 0 })).toBe(false);
  });

  it('a campaign stops on the intake refusing for a cap (billing_limit) or a suspension (sending_suspended), and on no other refusal', () => {
    expect(stopReasonOf('BILLING_LIMIT_EXCEEDED')).toBe('billing_limit');
    expect(stopReasonOf('PROJECT_SENDING_SUSPENDED')).toBe('sending_suspended');
    expect(stopReasonOf('VALIDATION_ERROR')).toBeNull();
    expect(stopReasonOf('DOMAIN_NOT_VERIFIED')).toBeNull();
  });

  it('rates are over sent, and 0 when nothing was sent', () => {
    const s = statsOf(counts({ recipients: 4, sent: 4, delivered: 3, opened: 2, clicked: 1, bounced: 1 }));
    expect(s.rates).toEqual({
      delivered: 0.75,
      opened: 0.5,
      clicked: 0.25,
      bounced: 0.25,
      complained: 0,
      unsubscribed: 0,
    });
    expect(statsOf(counts({})).rates.opened).toBe(0);
  });

  it('unsubscribed counts the recipients skipped as unsubscribed and those who unsubscribed through the link; the skip reasons still add up', () => {
    const c = counts({ recipients: 5, sent: 4, skipped: 1, unsubscribed: 1, unsubscribedByLink: 2 });
    const s = statsOf(c);
    expect([s.unsubscribed, s.skippedUnsubscribed, s.unsubscribedByLink, s.rates.unsubscribed]).toEqual([3, 1, 2, 0.5]);
    expect(addsUp(c)).toBe(true);
  });
});
