import { EVERYTHING } from '@herald/filters';
import { reachOf, touchesOf } from './change-reach.js';

describe('which contacts of a round each segment looks at', () => {
  it("a contact changed several times in a round is touched by the union of its changes' keys; once created, created", () => {
    const touches = touchesOf(
      [
        { contactId: 'c1', change: { kind: 'event', name: 'a' } },
        { contactId: 'c1', change: { kind: 'contact', keys: new Set(['data.x']) } },
        { contactId: 'c2', change: { kind: 'created' } },
        { contactId: 'c2', change: { kind: 'event', name: 'b' } },
        { contactId: 'c3', change: { kind: 'contact' } },
      ],
      new Map([['c2', ['data.plan']]]),
    );
    expect(touches.get('c1')).toEqual({ touched: new Set(['event.a', 'data.x']), created: false });
    expect(touches.get('c2')).toEqual({
      touched: new Set(['email', 'subscribed', 'createdAt', 'updatedAt', 'data.plan', 'event.b']),
      created: true,
    });
    expect(touches.get('c3')).toEqual({ touched: EVERYTHING, created: false });
  });

  it('a segment reaches the contacts touching a key it reads, and the created ones when it may match a contact holding nothing; a segment reaching none is left out', () => {
    const reads = new Map([
      ['seg_a', { keys: new Set(['event.a']), matchesEmpty: false }],
      ['seg_not_b', { keys: new Set(['event.b']), matchesEmpty: true }],
      ['seg_tier', { keys: new Set(['data.tier']), matchesEmpty: false }],
    ]);
    const touches = new Map([
      ['c3', { touched: new Set(['event.a']), created: false }],
      ['c1', { touched: new Set(['event.a']), created: false }],
      ['c2', { touched: new Set(['email', 'createdAt']), created: true }],
    ]);
    expect(Object.fromEntries(reachOf(reads, touches))).toEqual({ seg_a: ['c1', 'c3'], seg_not_b: ['c2'] });
  });
});
