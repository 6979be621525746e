import type { Email } from '../emails/email.entity.js';
import type { Outcome } from './delivery-outcome.js';
import { outcomeRecord } from './outcome-recorder.js';

const email = (n: number, attempts = 1): Email =>
  ({
    id: `eml_${n}`,
    projectId: 'prj_1',
    contactId: `cnt_${n}`,
    toEmail: `r${n}@example.com`,
    fromEmail: 'news@example.test',
    subject: 'Hi',
    templateId: null,
    origin: 'api',
    messageId: `msg-${n}@example.test`,
    attempts,
  }) as unknown as Email;

describe('outcomeRecord: what a batch’s outcomes write', () => {
  it('sent emails are written sent with their detail, and each gets email.sent with its Message-ID', () => {
    const { writes, events } = outcomeRecord(
      [
        { email: email(1), kind: 'sent', detail: '250 ok' },
        { email: email(2), kind: 'sent' },
      ],
      30_000,
    );
    expect(writes.sent).toEqual({ ids: ['eml_1', 'eml_2'], details: ['250 ok', null] });
    expect(writes.ended).toEqual([]);
    expect(writes.retry).toEqual({ ids: [], details: [], delaysMs: [] });
    expect(writes.suppress).toEqual([]);
    expect(events.map((e) => [e.type, e.payload.emailId, e.payload.messageId])).toEqual([
      ['email.sent', 'eml_1', 'msg-1@example.test'],
      ['email.sent', 'eml_2', 'msg-2@example.test'],
    ]);
  });

  it('a bounce ends the email, suppresses its address in its project and says email.bounced (permanent, the reason)', () => {
    const { writes, events } = outcomeRecord([{ email: email(1), kind: 'bounced', detail: '550 unknown user' }], 1);
    expect(writes.ended).toEqual([{ status: 'bounced', ids: ['eml_1'], details: ['550 unknown user'] }]);
    expect(writes.suppress).toEqual([{ projectId: 'prj_1', email: 'r1@example.com', detail: '550 unknown user' }]);
    expect(events.map((e) => [e.type, e.payload.bounceType, e.payload.reason])).toEqual([
      ['email.bounced', 'permanent', '550 unknown user'],
    ]);
  });

  it('suppressed, failed and bounced are written each as one status, in that order; only failed says email.failed', () => {
    const outcomes: Outcome[] = [
      { email: email(1), kind: 'bounced', detail: 'b' },
      { email: email(2), kind: 'failed', detail: 'f' },
      { email: email(3), kind: 'suppressed', detail: 's' },
      { email: email(4), kind: 'failed', detail: 'f2' },
    ];
    const { writes, events } = outcomeRecord(outcomes, 1);
    expect(writes.ended).toEqual([
      { status: 'suppressed', ids: ['eml_3'], details: ['s'] },
      { status: 'failed', ids: ['eml_2', 'eml_4'], details: ['f', 'f2'] },
      { status: 'bounced', ids: ['eml_1'], details: ['b'] },
    ]);
    expect(events.map((e) => [e.type, e.payload.emailId])).toEqual([
      ['email.bounced', 'eml_1'],
      ['email.failed', 'eml_2'],
      ['email.failed', 'eml_4'],
    ]);
  });

  it('a retry goes back to the queue after the jittered backoff of its attempts, with no event', () => {
    const { writes, events } = outcomeRecord(
      [
        { email: email(1, 1), kind: 'retry', detail: '421 later' },
        { email: email(2, 3), kind: 'retry', detail: 'connection reset' },
      ],
      30_000,
    );
    expect(writes.retry).toEqual({
      ids: ['eml_1', 'eml_2'],
      details: ['421 later', 'connection reset'],
      delaysMs: [expect.any(Number), expect.any(Number)],
    });
    // between half and all of base × 2^(attempts − 1)
    const [first, third] = writes.retry.delaysMs;
    expect(first).toBeGreaterThanOrEqual(15_000);
    expect(first).toBeLessThanOrEqual(30_000);
    expect(third).toBeGreaterThanOrEqual(60_000);
    expect(third).toBeLessThanOrEqual(120_000);
    expect(events).toEqual([]);
  });

  it('test mode: a simulated delivery is written sent then delivered and says email.sent and email.delivered, marked testMode', () => {
    const test = { ...email(1), testMode: true } as Email;
    const { writes, events } = outcomeRecord([{ email: test, kind: 'simulated', simulation: 'delivered' }], 1);
    expect(writes.sent).toEqual({ ids: ['eml_1'], details: [null] });
    expect(writes.delivered).toEqual(['eml_1']);
    expect(writes.complained).toEqual([]);
    expect(writes.suppress).toEqual([]);
    expect(events.map((e) => [e.type, e.payload.emailId, e.payload.testMode])).toEqual([
      ['email.sent', 'eml_1', true],
      ['email.delivered', 'eml_1', true],
    ]);
  });

  it('test mode: a simulated complaint is delivered, stamped complained and says email.complained; nothing is suppressed', () => {
    const test = { ...email(2), testMode: true } as Email;
    const { writes, events } = outcomeRecord([{ email: test, kind: 'simulated', simulation: 'complained' }], 1);
    expect(writes.delivered).toEqual(['eml_2']);
    expect(writes.complained).toEqual(['eml_2']);
    expect(writes.suppress).toEqual([]);
    expect(events.map((e) => [e.type, e.payload.testMode])).toEqual([
      ['email.sent', true],
      ['email.delivered', true],
      ['email.complained', true],
    ]);
  });

  it('test mode: a simulated bounce ends the email bounced with a permanent email.bounced, but suppresses no address (live data stays as it was)', () => {
    const test = { ...email(3), testMode: true } as Email;
    const live = email(4);
    const { writes, events } = outcomeRecord(
      [
        { email: test, kind: 'simulated', simulation: 'bounced', detail: '550 simulated' },
        { email: live, kind: 'bounced', detail: '550 real' },
      ],
      1,
    );
    expect(writes.ended).toEqual([
      { status: 'bounced', ids: ['eml_4', 'eml_3'], details: ['550 real', '550 simulated'] },
    ]);
    expect(writes.suppress).toEqual([{ projectId: 'prj_1', email: 'r4@example.com', detail: '550 real' }]);
    expect(writes.sent.ids).toEqual([]);
    expect(events.map((e) => [e.type, e.payload.emailId, e.payload.bounceType, e.payload.testMode])).toEqual([
      ['email.bounced', 'eml_4', 'permanent', undefined],
      ['email.bounced', 'eml_3', 'permanent', true],
    ]);
  });
});
