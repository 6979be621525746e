import type { EmailLifecycleV1, EventEnvelope } from '@herald/contracts';
import { notFoundError } from '@herald/core';
import type { DataSource, EntityManager } from 'typeorm';
import type { EmailHistory } from '../emails/email-history.js';
import type { Email } from '../emails/email.entity.js';
import type { EmailsStore } from '../emails/emails.store.js';
import type { ContactsClient } from '../send/contacts-client.js';
import { LinkTracking } from './link-tracking.js';

const sent: Partial<Email> = {
  id: 'eml_1',
  projectId: 'prj_1',
  contactId: 'cnt_1',
  toEmail: 'a@example.com',
  subject: 'Hi',
  templateId: null,
  origin: 'campaign',
  campaignId: 'cmp_1',
};

/** LinkTracking over a store whose email is stamped first only when `first`; what was published and asked of contacts. */
function trackingWith(o: { first?: boolean; campaignId?: string | null; contacts?: Partial<ContactsClient> } = {}) {
  const published: EventEnvelope<EmailLifecycleV1>[] = [];
  const stamped: string[] = [];
  const tx = {} as EntityManager;
  const db = {
    manager: {},
    transaction: async (work: (m: EntityManager) => unknown) => work(tx),
  } as unknown as DataSource;
  const store = {
    stampFirst: async (m: EntityManager, _id: string, column: string) => {
      expect(m).toBe(tx);
      stamped.push(column);
      return o.first === false ? undefined : sent;
    },
    campaignOf: async () => o.campaignId,
    recipient: async () => 'a@example.com',
  } as unknown as EmailsStore;
  const history = {
    publish: async (m: EntityManager, events: EventEnvelope<EmailLifecycleV1>[]) => {
      expect(m).toBe(tx);
      published.push(...events);
    },
  } as unknown as EmailHistory;
  const contacts = (o.contacts ?? {}) as ContactsClient;
  return { tracking: new LinkTracking(db, history, contacts, store), published, stamped };
}

describe('LinkTracking: what links in emails record', () => {
  it('the first open of an email publishes email.opened with its campaign; a later one publishes nothing', async () => {
    const first = trackingWith();
    await first.tracking.opened('eml_1');
    expect(first.stamped).toEqual(['opened_at']);
    expect(first.published.map((e) => [e.type, e.projectId, e.payload.emailId, e.payload.campaignId])).toEqual([
      ['email.opened', 'prj_1', 'eml_1', 'cmp_1'],
    ]);
    const later = trackingWith({ first: false });
    await later.tracking.opened('eml_1');
    expect(later.published).toEqual([]);
  });

  it('the first click publishes email.clicked with the url', async () => {
    const { tracking, published, stamped } = trackingWith();
    await tracking.clicked('eml_1', 'https://brand.test/offer');
    expect(stamped).toEqual(['clicked_at']);
    expect(published.map((e) => [e.type, e.payload.url])).toEqual([['email.clicked', 'https://brand.test/offer']]);
  });

  it('a subscription change names the email the link came in and its campaign, and the link’s reason', async () => {
    const calls: unknown[][] = [];
    const contacts = {
      setSubscription: async (...args: unknown[]) => (calls.push(args), { contact: { id: 'cnt_1' } }),
    } as unknown as ContactsClient;
    await trackingWith({ campaignId: 'cmp_1', contacts }).tracking.setSubscription('prj_1', 'cnt_1', false, 'eml_1');
    await trackingWith({ campaignId: null, contacts }).tracking.setSubscription('prj_1', 'cnt_1', true, 'eml_2');
    await trackingWith({ contacts }).tracking.setSubscription('prj_1', 'cnt_1', true);
    expect(calls).toEqual([
      ['prj_1', 'cnt_1', false, 'unsubscribe-link', { emailId: 'eml_1', campaignId: 'cmp_1' }],
      ['prj_1', 'cnt_1', true, 'subscribe-link', { emailId: 'eml_2' }],
      ['prj_1', 'cnt_1', true, 'subscribe-link', {}],
    ]);
  });

  it('a contact that no longer exists is null, for a subscription change as for a look-up', async () => {
    const gone = async () => {
      throw notFoundError('Contact', 'cnt_1');
    };
    const contacts = { setSubscription: gone, get: gone } as unknown as ContactsClient;
    const { tracking } = trackingWith({ contacts });
    expect(await tracking.setSubscription('prj_1', 'cnt_1', false)).toBeNull();
    expect(await tracking.contact('prj_1', 'cnt_1')).toBeNull();
  });
});
