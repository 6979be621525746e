import { BUILT_IN_VARIABLES, contactVariables, type RenderContact } from './contact-variables.js';

const contact: RenderContact = {
  id: 'cnt_1',
  email: 'ada@example.com',
  subscribed: true,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-02-03T04:05:06.000Z',
  data: { plan: 'pro', locale: 'fr', profile: { tier: 'gold' } },
};
const urls = { unsubscribeUrl: 'https://h/u', subscribeUrl: 'https://h/s', manageUrl: 'https://h/m' };

describe('contactVariables', () => {
  it("provides the contact's own fields, its links and the svc_* names beside its data keys", () => {
    expect(contactVariables(contact, urls)).toEqual({
      plan: 'pro',
      profile: { tier: 'gold' },
      email: 'ada@example.com',
      id: 'cnt_1',
      subscribed: true,
      createdAt: '2026-01-02T03:04:05.000Z',
      updatedAt: '2026-02-03T04:05:06.000Z',
      locale: 'fr',
      ...urls,
      svc_id: 'cnt_1',
      svc_email: 'ada@example.com',
    });
  });

  it('lets no data key, stored or non-persistent, shadow a built-in field', () => {
    const shadowing = Object.fromEntries(BUILT_IN_VARIABLES.filter((k) => k !== 'locale').map((k) => [k, 'shadow']));
    const vars = contactVariables({ ...contact, data: { ...shadowing, plan: 'pro' } }, urls, shadowing);
    for (const key of BUILT_IN_VARIABLES) expect(vars[key]).not.toBe('shadow');
    expect(vars.plan).toBe('pro');
  });

  it('takes locale from the data, a non-persistent value first, and null when there is none', () => {
    expect(contactVariables(contact, urls, { locale: 'de' }).locale).toBe('de');
    expect(contactVariables({ ...contact, data: {} }, urls).locale).toBeNull();
  });
});
