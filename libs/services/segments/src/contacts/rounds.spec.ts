import { rounds } from './rounds.js';

describe('rounds (a batch of changes applied as if one at a time)', () => {
  const change = (projectId: string, contactId: string, n: number) => ({ projectId, contactId, n });
  const split = (items: ReturnType<typeof change>[]) =>
    rounds(
      items,
      (c) => c.contactId,
      (c) => c.projectId,
    ).map((r) => r.map((c) => c.n));

  it('puts changes of different contacts in one round', () => {
    expect(split([change('p', 'a', 1), change('p', 'b', 2), change('p', 'c', 3)])).toEqual([[1, 2, 3]]);
  });

  it("gives a contact's later change the next round, keeping each contact's changes in their order", () => {
    expect(
      split([change('p', 'a', 1), change('p', 'b', 2), change('p', 'a', 3), change('p', 'a', 4), change('p', 'b', 5)]),
    ).toEqual([[1, 2], [3, 5], [4]]);
  });

  it('keeps one contact id of two projects apart', () => {
    expect(split([change('p1', 'a', 1), change('p2', 'a', 2)])).toEqual([[1, 2]]);
  });
});
