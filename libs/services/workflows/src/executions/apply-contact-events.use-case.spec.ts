import { contactKeys, eventKeys, typeOf, type ContactEvent } from './apply-contact-events.use-case.js';

const event = (name: string, data: Record<string, unknown>, projectId = 'prj_1'): ContactEvent => ({
  projectId,
  eventId: `evt_${name}`,
  contactId: 'cnt_1',
  email: 'ada@example.com',
  name,
  data,
});

describe('the data keys contacts events record (GET /workflows/fields)', () => {
  it('a value types its key as array, object or its JavaScript type; null and undefined give none', () => {
    expect([[1], { a: 1 }, 'x', 2, true, null, undefined].map(typeOf)).toEqual([
      'array',
      'object',
      'string',
      'number',
      'boolean',
      undefined,
      undefined,
    ]);
  });

  it("tracked events' keys are scoped event:<name> per project, once per run (the last type), null values left out", () => {
    expect(
      eventKeys([
        event('signup', { plan: 'pro', seats: null }),
        event('signup', { plan: 3 }),
        event('signup', { plan: 'free' }, 'prj_2'),
        event('paid', { amount: 5 }),
      ]),
    ).toEqual([
      { projectId: 'prj_1', scope: 'event:signup', key: 'plan', type: 'number' },
      { projectId: 'prj_2', scope: 'event:signup', key: 'plan', type: 'string' },
      { projectId: 'prj_1', scope: 'event:paid', key: 'amount', type: 'number' },
    ]);
  });

  it('the first 100 keys of an event or a contact count, names cut to 300 characters', () => {
    const data = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    expect(eventKeys([event('signup', data)])).toHaveLength(100);
    expect(contactKeys('prj_1', data)).toHaveLength(100);
    const long = 'x'.repeat(400);
    expect(eventKeys([event(long, { [long]: 1 })])[0]).toMatchObject({
      scope: `event:${long}`.slice(0, 300),
      key: long.slice(0, 300),
    });
    expect(contactKeys('prj_1', { [long]: 1 })[0]!.key).toHaveLength(300);
  });

  it("a contact's keys are scoped contact, null values left out", () => {
    expect(contactKeys('prj_1', { plan: 'pro', gone: null, tags: ['a'] })).toEqual([
      { projectId: 'prj_1', scope: 'contact', key: 'plan', type: 'string' },
      { projectId: 'prj_1', scope: 'contact', key: 'tags', type: 'array' },
    ]);
  });
});
