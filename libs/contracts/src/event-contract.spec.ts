import { EventTracked } from './events/event-tracked/event-tracked.v1.js';
import { IsString, ValidateNested } from 'class-validator';
import { isValidEmail } from './email-address.js';
import { contractFor, defineEvent, InvalidEventError } from './event-contract.js';
import { Topics } from './topics.js';

describe('event contracts', () => {
  const payload = {
    eventRecordId: 'evt_1',
    contactId: 'cnt_1',
    email: 'a@example.com',
    name: 'signup',
    data: { plan: 'pro' },
  };

  it('builds an envelope with eventId, projectId, occurredAt, version and the contact id as key', () => {
    const e = EventTracked.create({ projectId: 'prj_1', payload, source: 'contacts', correlationId: 'req-1' });
    expect(e).toMatchObject({
      type: Topics.EventTracked,
      version: 1,
      projectId: 'prj_1',
      key: 'cnt_1',
      source: 'contacts',
      correlationId: 'req-1',
      payload,
    });
    expect(e.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(e.occurredAt))).toBe(false);
  });

  it('gives events time-ordered ids (UUIDv7): an event created later sorts after an earlier one', () => {
    const ids = Array.from(
      { length: 1000 },
      () => EventTracked.create({ projectId: 'prj_1', payload, source: 'contacts' }).eventId,
    );
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses to build an event that breaks its contract', () => {
    expect(() =>
      EventTracked.create({ projectId: 'prj_1', payload: { ...payload, email: 'nope' }, source: 'contacts' }),
    ).toThrow(InvalidEventError);
  });

  it('checks an email address by the one rule the edge applies (isValidEmail): an address the API accepted never fails a contract', () => {
    const build = (email: unknown) => () =>
      EventTracked.create({ projectId: 'prj_1', payload: { ...payload, email: email as string }, source: 'contacts' });
    const candidates: unknown[] = [
      'a@example.com',
      'first.last+tag@sub.example.co.uk',
      'ü@exämple.de',
      '"a b"@example.com',
      '"a@b"@example.com',
      'a\u202e@example.com',
      'a\u200b@example.com',
      'a\u0000@example.com',
      'nope',
      'a b@example.com',
      'a@b@example.com',
      '@example.com',
      'a@',
      'a@localhost',
      '',
      42,
      undefined,
    ];
    for (const email of candidates) {
      if (isValidEmail(email)) expect(build(email)).not.toThrow();
      else expect(build(email)).toThrow(/email must be a valid email address/);
    }
    expect(isValidEmail('"a b"@example.com')).toBe(false);
  });

  it('finds the contract of a received topic and version and reports what is wrong', () => {
    const contract = contractFor('event.tracked', 1)!;
    const e = EventTracked.create({ projectId: 'prj_1', payload, source: 'contacts' });
    expect(contract.validate(e)).toEqual([]);
    expect(contract.validate({ ...e, version: 2 })).toEqual(['version: expected 1, got 2']);
    expect(contract.validate({ ...e, payload: { ...payload, name: '' } })[0]).toMatch(/^payload\.name/);
    expect(contractFor('event.tracked', 99)).toBeUndefined();
  });

  it('refuses, when it is declared, a payload class with nested validation (payloads are validated flat)', () => {
    class Inner {
      @IsString() x!: string;
    }
    class Outer {
      @ValidateNested() inner!: Inner;
    }
    expect(() => defineEvent({ topic: 'test.nested', version: 1, payload: Outer, key: () => 'k' })).toThrow(
      /inner would need nested validation/,
    );
  });
});
