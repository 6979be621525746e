import {
  errorRate,
  judge,
  judgeRelay,
  recoveryMs,
  within,
  type EmailRow,
  type FinalState,
  type LedgerEntry,
} from './oracle.js';

const send = (id: string | undefined, status: number | null = 200, at = 0): LedgerEntry => ({
  kind: 'send',
  recipient: `${id}@example.com`,
  startedAt: at,
  endedAt: at + 10,
  status,
  ...(id ? { id } : {}),
});
const track = (id: string, recipient = 'ada@example.com', status: number | null = 200, at = 0): LedgerEntry => ({
  kind: 'track',
  recipient,
  startedAt: at,
  endedAt: at + 10,
  status,
  id,
});
const email = (id: string, status = 'sent', error: string | null = null): EmailRow => ({
  id,
  status,
  messageId: `m-${id}`,
  error,
});
const state = (over: Partial<{ emails: EmailRow[]; events: string[]; contacts: string[]; received: string[] }>) =>
  ({
    emails: new Map((over.emails ?? []).map((e) => [e.id, e])),
    events: new Set(over.events ?? []),
    contacts: new Set(over.contacts ?? []),
    received: over.received ?? [],
  }) satisfies FinalState;

describe('the fault oracle', () => {
  it('an acknowledged send stored, sent and received once is neither lost nor duplicated', () => {
    const v = judge([send('e1')], state({ emails: [email('e1')], received: ['m-e1'] }));
    expect(v).toEqual({ acknowledged: 1, lost: [], duplicated: [], inDoubt: [], stuck: [] });
  });

  it('an acknowledged send with no email row is lost', () => {
    const v = judge([send('e1')], state({}));
    expect(v.lost.map((l) => l.why)).toEqual(['email not stored']);
  });

  it('an email recorded sent that the relay never received is lost, unless recovery flagged it in doubt', () => {
    const v = judge(
      [send('e1'), send('e2')],
      state({ emails: [email('e1'), email('e2', 'sent', 'Recovered after a worker stopped mid-hand-off')] }),
    );
    expect(v.lost.map((l) => l.entry.id)).toEqual(['e1']);
    expect(v.inDoubt).toEqual(['e2']);
  });

  it('an email flagged in doubt that the relay did receive counts as delivered', () => {
    const v = judge(
      [send('e1')],
      state({ emails: [email('e1', 'sent', "The relay's answer was lost")], received: ['m-e1'] }),
    );
    expect(v).toMatchObject({ lost: [], inDoubt: [] });
  });

  it('two copies of one Message-ID at the relay are a duplicate', () => {
    const v = judge([send('e1')], state({ emails: [email('e1')], received: ['m-e1', 'm-e1'] }));
    expect(v.duplicated).toEqual([{ messageId: 'm-e1', copies: 2 }]);
  });

  it("copies of messages outside the ledger are not this ledger's duplicates", () => {
    const v = judge([send('e1')], state({ emails: [email('e1')], received: ['m-e1', 'm-x', 'm-x'] }));
    expect(v.duplicated).toEqual([]);
  });

  it('an acknowledged email still queued or sending after recovery is stuck, not lost', () => {
    const v = judge([send('e1'), send('e2')], state({ emails: [email('e1', 'queued'), email('e2', 'sending')] }));
    expect(v).toMatchObject({ lost: [], stuck: ['e1', 'e2'] });
  });

  it('a send failed or suppressed for good is an outcome, not a loss', () => {
    const v = judge([send('e1'), send('e2')], state({ emails: [email('e1', 'failed'), email('e2', 'suppressed')] }));
    expect(v.lost).toEqual([]);
  });

  it('an acknowledged track is lost when its event or its contact is not stored', () => {
    const v = judge(
      [track('t1', 'a@example.com'), track('t2', 'b@example.com'), track('t3', 'c@example.com')],
      state({ events: ['t1', 't3'], contacts: ['a@example.com', 'b@example.com'] }),
    );
    expect(v.lost.map((l) => [l.entry.id, l.why])).toEqual([
      ['t2', 'event not stored'],
      ['t3', 'contact not stored'],
    ]);
  });

  it('an acknowledged track stored but never carried over Kafka to segments is lost downstream', () => {
    const v = judge([track('t1', 'a@example.com'), track('t2', 'a@example.com')], {
      ...state({ events: ['t1', 't2'], contacts: ['a@example.com'] }),
      projected: new Set(['t1']),
    });
    expect(v.lost.map((l) => [l.entry.id, l.why])).toEqual([['t2', 'event never reached segments (over Kafka)']]);
  });

  it('requests not answered with a 2xx are not acknowledged and cannot be lost', () => {
    const v = judge([send('e1', 503), send(undefined, null), track('t1', 'a@example.com', 500)], state({}));
    expect(v).toEqual({ acknowledged: 0, lost: [], duplicated: [], inDoubt: [], stuck: [] });
  });

  it('a 2xx without an id is a loss (the client cannot follow what it was promised)', () => {
    expect(judge([send(undefined)], state({})).lost.map((l) => l.why)).toEqual(['acknowledged without an id']);
  });

  it('the error rate is the share of requests not answered with a 2xx', () => {
    expect(errorRate([send('a'), send('b', 503), send('c', null), send('d')])).toBe(0.5);
    expect(errorRate([])).toBe(0);
  });

  it('a fault window holds the requests started in it', () => {
    const ledger = [send('a', 200, 5), send('b', 200, 10), send('c', 200, 20)];
    expect(within(ledger, 10, 20).map((e) => e.id)).toEqual(['b']);
  });

  it('recovery runs from the fault to the first success after the last failure', () => {
    const ledger = [
      send('a', 200, 0),
      send('b', 503, 100),
      send('c', null, 200),
      send('d', 200, 300),
      send('e', 200, 400),
    ];
    expect(recoveryMs(ledger, 50)).toBe(260); // d ended at 310
  });

  it("recovery ignores requests answered after the next fault: that fault's failures are its own", () => {
    const ledger = [send('a', 503, 100), send('b', 200, 200), send('c', 503, 290)]; // c ends at 300
    expect(recoveryMs(ledger, 50, 300)).toBe(160);
    expect(recoveryMs(ledger, 50)).toBeNull();
  });

  it('recovery is 0 when nothing failed after the fault, and unknown when nothing succeeded after the last failure', () => {
    expect(recoveryMs([send('a', 503, 0), send('b', 200, 100)], 50)).toBe(0);
    expect(recoveryMs([send('a', 200, 0), send('b', 503, 100)], 50)).toBeNull();
  });

  it('an email the relay refused for good (bounced with its 5xx answer) is not lost though never received', () => {
    const refusal = "Can't send mail - all recipients were rejected: 550 Recipient address rejected";
    const v = judge(
      [send('e1'), send('e2')],
      state({ emails: [email('e1', 'bounced', refusal), email('e2', 'bounced')] }),
    );
    expect(v.lost.map((l) => l.entry.id)).toEqual(['e2']);
    expect(judgeRelay([send('e1')], state({ emails: [email('e1', 'bounced', refusal)] })).refused).toEqual(['e1']);
  });

  it('a faulty relay: emails given up, flagged in doubt, and received twice are each listed', () => {
    const lostAnswer = "The relay's answer was lost after the hand-off; counted as sent, never resent: reset";
    const v = judgeRelay(
      [send('e1'), send('e2'), send('e3'), send('e4')],
      state({
        emails: [
          email('e1'),
          email('e2', 'failed', 'Gave up after 8 attempts: 450 try later'),
          email('e3', 'sent', lostAnswer),
          email('e4', 'sent', lostAnswer),
        ],
        received: ['m-e1', 'm-e3', 'm-e4', 'm-e4'],
      }),
    );
    expect(v).toEqual({
      refused: [],
      gaveUp: ['e2'],
      flagged: ['e3', 'e4'],
      resent: [{ id: 'e4', copies: 2, flagged: true }],
    });
  });
});
