import type { Email } from '../emails/email.entity.js';
import { afterRelayFailure, retryDelayMs, retryOrGiveUp, simulatedOutcome } from './delivery-outcome.js';

const email = (attempts: number) => ({ id: 'eml_1', attempts }) as Email;

describe('delivery outcomes: what a problem makes of an email', () => {
  it('a temporary problem is retried while attempts remain, and fails naming the attempts on the last one', () => {
    expect(retryOrGiveUp(email(7), 'busy', 8)).toMatchObject({ kind: 'retry', detail: 'busy' });
    expect(retryOrGiveUp(email(8), 'busy', 8)).toMatchObject({
      kind: 'failed',
      detail: 'Gave up after 8 attempts: busy',
    });
  });

  it('a permanent answer of the relay bounces at once, whatever the attempts left', () => {
    expect(afterRelayFailure(email(1), 'permanent', '550 no such user', 8)).toMatchObject({
      kind: 'bounced',
      detail: '550 no such user',
    });
  });

  it("a failure after the recorded hand-off counts as sent, never resent, saying the relay's answer was lost", () => {
    const o = afterRelayFailure(email(8), 'in-doubt', 'socket closed', 8);
    expect(o.kind).toBe('sent');
    expect(o.detail).toBe(
      "The relay's answer was lost after the hand-off; counted as sent, never resent: socket closed",
    );
  });

  it('a temporary failure of the relay retries, then gives up after the last attempt', () => {
    expect(afterRelayFailure(email(2), 'temporary', '421 try later', 3)).toMatchObject({ kind: 'retry' });
    expect(afterRelayFailure(email(3), 'temporary', '421 try later', 3)).toMatchObject({
      kind: 'failed',
      detail: 'Gave up after 3 attempts: 421 try later',
    });
  });

  it('the wait before a retry doubles with each attempt from the base, and never passes an hour', () => {
    const top = () => 1;
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, 30_000, top))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(0, 30_000, top)).toBe(30_000);
    expect(retryDelayMs(20, 30_000, top)).toBe(3_600_000);
    // jittered: between half and all of the exponential wait
    expect(retryDelayMs(3, 30_000, () => 0)).toBe(60_000);
    for (let i = 0; i < 50; i++) expect(retryDelayMs(3, 30_000)).toBeGreaterThanOrEqual(60_000);
    for (let i = 0; i < 50; i++) expect(retryDelayMs(3, 30_000)).toBeLessThanOrEqual(120_000);
  });

  it('a test-mode email is simulated as its sandbox address chooses: a bounce with the simulated 550, else delivered or complained', () => {
    const to = (toEmail: string) => ({ id: 'eml_1', attempts: 1, testMode: true, toEmail }) as Email;
    expect(simulatedOutcome(to('bounced@sandbox.herald.test'))).toMatchObject({
      kind: 'simulated',
      simulation: 'bounced',
      detail: expect.stringMatching(/^550 5\.1\.1 Test mode: simulated hard bounce/),
    });
    expect(simulatedOutcome(to('complained@sandbox.herald.test'))).toMatchObject({ simulation: 'complained' });
    expect(simulatedOutcome(to('delivered@sandbox.herald.test'))).toMatchObject({ simulation: 'delivered' });
    expect(simulatedOutcome(to('someone@example.com'))).toMatchObject({ simulation: 'delivered' });
  });
});
