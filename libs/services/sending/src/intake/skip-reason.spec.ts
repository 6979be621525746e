import { skipReasonOf } from './skip-reason.js';

const marketing = { category: 'marketing' } as const;
const test = { category: 'marketing', test: true } as const;
const subscribed = { subscribed: true };
const unsubscribed = { subscribed: false };

describe('skipReasonOf: which intake items are stored but never sent', () => {
  it('skips marketing mail to an unsubscribed or unknown contact, and sends it to a subscribed one', () => {
    expect(skipReasonOf(marketing, 'a@b.test', false, unsubscribed)).toBe('unsubscribed');
    expect(skipReasonOf(marketing, 'a@b.test', false, undefined)).toBe('unsubscribed');
    expect(skipReasonOf(marketing, 'a@b.test', false, subscribed)).toBeUndefined();
    expect(skipReasonOf({ category: 'transactional' }, 'a@b.test', false, undefined)).toBeUndefined();
  });

  it('sends a test to its address whatever the contact: none, unsubscribed or subscribed', () => {
    for (const contact of [undefined, unsubscribed, subscribed])
      expect(skipReasonOf(test, 'a@b.test', false, contact)).toBeUndefined();
  });

  it('never sends to a suppressed or invalid address, a test included', () => {
    for (const item of [marketing, test, { category: 'transactional' } as const]) {
      expect(skipReasonOf(item, 'a@b.test', true, subscribed)).toBe('suppressed');
      expect(skipReasonOf(item, null, false, subscribed)).toBe('invalid_address');
    }
  });
});
