import { MAX_DATA_BYTES } from '@herald/contact-data';
import { applyContactInput, contactEventsOf, type WriteContext } from './contact-change.js';
import type { Contact } from './contact.entity.js';

const now = new Date('2030-01-02T03:04:05Z');
const earlier = new Date('2029-01-01T00:00:00Z');
const options = { projectId: 'prj_1', subscribedIfNew: false, now };
const stored = (over: Partial<Contact> = {}): Contact =>
  ({
    id: 'cnt_stored',
    projectId: 'prj_1',
    email: 'ada@x.test',
    subscribed: true,
    data: { plan: 'free' },
    deletionsApplied: '3',
    createdAt: earlier,
    updatedAt: earlier,
    ...over,
  }) as Contact;
const ctx: WriteContext = { projectId: 'prj_1', subscribedIfNew: false, reason: 'send', correlationId: 'req_1' };

describe('applyContactInput: what a write makes of a stored contact', () => {
  it('creates a contact with the proposed id, the normalised address, the default subscription and no changed keys', () => {
    const write = applyContactInput(
      null,
      { email: ' Ada@X.test', data: { plan: 'pro' } },
      { ...options, idIfNew: 'cnt_x' },
    );
    expect(write).toEqual({
      contact: {
        id: 'cnt_x',
        projectId: 'prj_1',
        email: 'ada@x.test',
        subscribed: false,
        data: { plan: 'pro' },
        createdAt: now,
        updatedAt: now,
      },
      created: true,
      changedKeys: [],
      transient: {},
    });
  });

  it('draws a fresh contact id when none is proposed', () => {
    expect(applyContactInput(null, { email: 'a@x.test' }, options).contact.id).toMatch(/^cnt_/);
  });

  it('an input that changes nothing answers the very contact read, with its transient values', () => {
    const before = stored();
    const write = applyContactInput(
      before,
      { email: 'ADA@x.test', subscribed: true, data: { plan: 'free', coupon: { value: 'X', persistent: false } } },
      options,
    );
    expect(write.contact).toBe(before);
    expect(write).toMatchObject({ created: false, changedKeys: [], transient: { coupon: 'X' } });
  });

  it('a changed contact keeps its id, creation time and applied deletions, and takes the new state and time', () => {
    const write = applyContactInput(stored(), { subscribed: false, data: { city: 'Oslo' } }, options);
    expect(write.contact).toEqual(stored({ subscribed: false, data: { plan: 'free', city: 'Oslo' }, updatedAt: now }));
    expect(write.changedKeys).toEqual(['subscribed', 'data.city']);
  });

  it('a PATCH of the address is the changed key email; an upsert by the same address never is', () => {
    expect(applyContactInput(stored(), { email: 'Bob@x.test' }, options)).toMatchObject({
      contact: { email: 'bob@x.test' },
      changedKeys: ['email'],
    });
    expect(applyContactInput(stored(), { email: 'ada@x.test', data: { plan: 'pro' } }, options).changedKeys).toEqual([
      'data.plan',
    ]);
  });

  it('refuses with the 422 of field data a result past the size limit, new or existing', () => {
    const big = { a: 'x'.repeat(16_000), b: 'x'.repeat(16_000), c: 'x'.repeat(16_000), d: 'x'.repeat(16_000) };
    const more = { e: 'x'.repeat(16_000) };
    const refusal = {
      kind: 'invalid',
      code: 'VALIDATION_ERROR',
      details: expect.objectContaining({
        errors: [{ field: 'data', message: `data must be at most ${MAX_DATA_BYTES} bytes as JSON`, code: 'too_big' }],
      }),
    };
    expect(() => applyContactInput(stored({ data: big }), { data: more }, options)).toThrow(
      expect.objectContaining(refusal),
    );
    expect(() => applyContactInput(null, { email: 'a@x.test', data: { ...big, ...more } }, options)).toThrow(
      expect.objectContaining(refusal),
    );
  });
});

describe('contactEventsOf: the events of a write', () => {
  const types = (events: { type: string }[]) => events.map((e) => e.type);

  it('a created contact is contact.created with its state and the call correlation', () => {
    const write = applyContactInput(
      null,
      { email: 'a@x.test', data: { plan: 'pro' } },
      { ...options, idIfNew: 'cnt_a' },
    );
    const [created, ...rest] = contactEventsOf(write, ctx);
    expect(rest).toEqual([]);
    expect(created).toMatchObject({
      type: 'contact.created',
      projectId: 'prj_1',
      correlationId: 'req_1',
      payload: { contactId: 'cnt_a', email: 'a@x.test', subscribed: false, data: { plan: 'pro' } },
    });
  });

  it('an unchanged contact has no event', () => {
    expect(contactEventsOf(applyContactInput(stored(), { data: { plan: 'free' } }, options), ctx)).toEqual([]);
  });

  it('a changed contact is contact.updated with its changed keys', () => {
    const events = contactEventsOf(applyContactInput(stored(), { data: { plan: 'pro' } }, options), ctx);
    expect(types(events)).toEqual(['contact.updated']);
    expect(events[0]!.payload).toEqual({
      contactId: 'cnt_stored',
      email: 'ada@x.test',
      subscribed: true,
      data: { plan: 'pro' },
      changedKeys: ['data.plan'],
    });
  });

  it('a subscription change follows contact.updated with contact.subscribed or contact.unsubscribed, reason and link', () => {
    const via = { emailId: 'eml_1', campaignId: 'cmp_1' };
    const off = contactEventsOf(applyContactInput(stored(), { subscribed: false }, options), { ...ctx, via });
    expect(types(off)).toEqual(['contact.updated', 'contact.unsubscribed']);
    expect(off[1]!.payload).toEqual({ contactId: 'cnt_stored', email: 'ada@x.test', reason: 'send', ...via });
    const on = contactEventsOf(applyContactInput(stored({ subscribed: false }), { subscribed: true }, options), ctx);
    expect(types(on)).toEqual(['contact.updated', 'contact.subscribed']);
  });
});
