import type { WriteContext } from './contact-change.js';
import type { Contact } from './contact.entity.js';
import { emailsOf, planUpserts, withWriteTime, type UpsertItem } from './upsert-plan.js';

const now = new Date('2030-01-02T03:04:05Z');
const earlier = new Date('2029-01-01T00:00:00Z');
const ctx: WriteContext = { projectId: 'prj_1', subscribedIfNew: false, reason: 'send' };
const stored = (email: string, over: Partial<Contact> = {}): Contact =>
  ({
    id: `cnt_${email[0]}`,
    projectId: 'prj_1',
    email,
    subscribed: true,
    data: {},
    deletionsApplied: '0',
    createdAt: earlier,
    updatedAt: earlier,
    ...over,
  }) as Contact;
const item = (email: string, over: Partial<UpsertItem['input']> = {}, extra: Partial<UpsertItem> = {}): UpsertItem => ({
  input: { email, ...over },
  ctx,
  ...extra,
});
const types = (plan: { events: { type: string }[] }) => plan.events.map((e) => e.type);

describe('planUpserts: the items of a batch applied in order, as if written one by one', () => {
  it('a new address is inserted with its proposed id; an existing one changed is updated; one matched unchanged is neither', () => {
    const kept = stored('kept@x.test');
    const changed = stored('changed@x.test');
    const plan = planUpserts(
      'prj_1',
      [
        item('new@x.test', { data: { a: 1 } }, { idIfNew: 'cnt_new' }),
        item('changed@x.test', { data: { a: 1 } }),
        item('kept@x.test'),
      ],
      [kept, changed],
      now,
    );
    expect(plan.inserts.map((c) => c.id)).toEqual(['cnt_new']);
    expect(plan.updates.map((c) => [c.email, c.data])).toEqual([['changed@x.test', { a: 1 }]]);
    expect(plan.unchanged).toEqual([kept]);
    expect(plan.results.map((r) => [r.created, r.changedKeys])).toEqual([
      [true, []],
      [false, ['data.a']],
      [false, []],
    ]);
    expect(types(plan)).toEqual(['contact.created', 'contact.updated']);
  });

  it('an address listed twice is created once, then changed: one insert with the last state, both events', () => {
    const plan = planUpserts(
      'prj_1',
      [item('Twice@x.test', { data: { a: 1 } }), item('twice@x.test', { subscribed: true, data: { b: 2 } })],
      [],
      now,
    );
    expect(plan.inserts).toHaveLength(1);
    expect(plan.inserts[0]).toMatchObject({ subscribed: true, data: { a: 1, b: 2 } });
    expect(plan.updates).toEqual([]);
    expect(plan.results.map((r) => [r.contact.id, r.created, r.changedKeys])).toEqual([
      [plan.inserts[0]!.id, true, []],
      [plan.inserts[0]!.id, false, ['subscribed', 'data.b']],
    ]);
    expect(plan.results[0]!.contact.data).toEqual({ a: 1 });
    expect(types(plan)).toEqual(['contact.created', 'contact.updated', 'contact.subscribed']);
  });

  it('a repeat changes nothing and answers the contact as the items before it left it', () => {
    const plan = planUpserts(
      'prj_1',
      [item('ada@x.test', { data: { a: 1 } }), item('ada@x.test', { data: { a: 2 } }, { repeat: true })],
      [stored('ada@x.test')],
      now,
    );
    expect(plan.results[1]).toEqual({
      contact: plan.results[0]!.contact,
      created: false,
      changedKeys: [],
      transient: {},
    });
    expect(plan.updates.map((c) => c.data)).toEqual([{ a: 1 }]);
    expect(types(plan)).toEqual(['contact.updated']);
  });

  it('a repeat of an address without a contact is CONTACT_NOT_FOUND', () => {
    expect(() => planUpserts('prj_1', [item('gone@x.test', {}, { repeat: true })], [], now)).toThrow(
      expect.objectContaining({ code: 'CONTACT_NOT_FOUND' }),
    );
  });

  it('rows are inserted and updated in email order, the order the locking path locks them in', () => {
    const plan = planUpserts(
      'prj_1',
      [item('b@x.test'), item('a@x.test'), item('d@x.test', { data: { x: 1 } }), item('c@x.test', { data: { x: 1 } })],
      [stored('d@x.test'), stored('c@x.test')],
      now,
    );
    expect(plan.inserts.map((c) => c.email)).toEqual(['a@x.test', 'b@x.test']);
    expect(plan.updates.map((c) => c.email)).toEqual(['c@x.test', 'd@x.test']);
    expect(emailsOf([item('B@x.test'), item('a@x.test'), item('b@x.test')])).toEqual(['a@x.test', 'b@x.test']);
  });
});

describe('withWriteTime: the database time on every contact state the plan made', () => {
  it('created contacts take it as both timestamps, changed ones as updatedAt, contacts as read keep theirs', () => {
    const at = new Date('2030-06-01T00:00:00Z');
    const kept = stored('kept@x.test');
    const found = [kept, stored('changed@x.test')];
    const plan = planUpserts(
      'prj_1',
      [
        item('new@x.test'),
        item('new@x.test', { data: { a: 1 } }),
        item('changed@x.test', { data: { a: 1 } }),
        item('kept@x.test'),
      ],
      found,
      now,
    );
    const results = withWriteTime(plan, found, at);
    expect(results.map((r) => [r.contact.createdAt, r.contact.updatedAt])).toEqual([
      [at, at],
      [at, at],
      [earlier, at],
      [earlier, earlier],
    ]);
    expect(results[3]!.contact).toBe(kept);
  });
});
