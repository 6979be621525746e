import type { EmailLifecycleV1, EventEnvelope } from '@herald/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { EmailHistory } from '../emails/email-history.js';
import type { Email } from '../emails/email.entity.js';
import type { DeliveryNotification } from './delivery-notification.js';
import { EmailNotificationSink } from './delivery-notification.sink.js';
import type { NotificationStore } from './notification-store.js';

const email = (id: string, toEmail: string): Email =>
  ({
    id,
    projectId: 'prj_1',
    contactId: `cnt_${id}`,
    toEmail,
    subject: 'Hi',
    templateId: null,
    origin: 'campaign',
    campaignId: 'cmp_1',
    workflowId: null,
  }) as Email;

/** The sink over a store matching `matched` (a notice seen before when `duplicate`); every write, in order, and what was published. */
function sinkWith(matched: Email[], duplicate = false) {
  const writes: unknown[][] = [];
  const published: EventEnvelope<EmailLifecycleV1>[][] = [];
  const tx = {} as EntityManager;
  let transactions = 0;
  const db = {
    transaction: async (work: (m: EntityManager) => unknown) => (transactions++, work(tx)),
  } as unknown as DataSource;
  const store = {
    claimNotice: async (_m: EntityManager, id: string) => (writes.push(['notice', id]), !duplicate),
    lockMatching: async (_m: EntityManager, ...args: unknown[]) => (writes.push(['lock', ...args]), matched),
    markDelivered: async (_m: EntityManager, id: string) => void writes.push(['delivered', id]),
    markBounced: async (_m: EntityManager, id: string, error: string) => void writes.push(['bounced', id, error]),
    markComplained: async (_m: EntityManager, id: string) => void writes.push(['complained', id]),
    suppress: async (m: EntityManager, ...args: unknown[]) => void writes.push(['suppress', m === tx, ...args]),
  } as unknown as NotificationStore;
  const history = {
    publish: async (m: EntityManager, events: EventEnvelope<EmailLifecycleV1>[]) => {
      expect(m).toBe(tx);
      published.push(events);
    },
  } as unknown as EmailHistory;
  return { sink: new EmailNotificationSink(db, history, store), writes, published, transactions: () => transactions };
}

const notice = (n: Partial<DeliveryNotification>): DeliveryNotification => ({
  notificationId: 'n-1',
  source: 'ses',
  type: 'bounce',
  recipients: ['A@Example.com'],
  occurredAt: new Date('2026-06-01T10:00:00Z'),
  ...n,
});

describe('EmailNotificationSink: what a relay notification writes and publishes, in one transaction', () => {
  it('a repeated notice (its id seen before) changes nothing', async () => {
    const { sink, writes, published } = sinkWith([email('eml_1', 'a@example.com')], true);
    expect(await sink.record(notice({}))).toEqual({ duplicate: true, matched: 0 });
    expect(writes).toEqual([['notice', 'ses:n-1']]);
    expect(published).toEqual([]);
  });

  it('matches by Herald id or the Message-ID without its angle brackets, to the normalised recipients', async () => {
    const { sink, writes } = sinkWith([]);
    await sink.record(notice({ source: 'generic', emailId: 'eml_1', messageId: '<m-1@brand.test>' }));
    expect(writes.slice(0, 2)).toEqual([
      ['notice', 'generic:n-1'],
      ['lock', 'eml_1', 'm-1@brand.test', ['a@example.com']],
    ]);
    const bare = sinkWith([]);
    await bare.sink.record(notice({}));
    expect(bare.writes[1]).toEqual(['lock', '', '', ['a@example.com']]);
  });

  it('a permanent bounce marks each email bounced with the reason, suppresses its address and publishes email.bounced', async () => {
    const { sink, writes, published, transactions } = sinkWith([email('eml_1', 'a@example.com')]);
    expect(await sink.record(notice({ bounceType: 'permanent', reason: '550 gone' }))).toEqual({
      duplicate: false,
      matched: 1,
    });
    expect(writes.slice(2)).toEqual([
      ['bounced', 'eml_1', '550 gone'],
      ['suppress', true, 'prj_1', 'a@example.com', 'bounce', '550 gone'],
    ]);
    expect(published[0]!.map((e) => [e.type, e.payload.bounceType, e.payload.reason, e.payload.campaignId])).toEqual([
      ['email.bounced', 'permanent', '550 gone', 'cmp_1'],
    ]);
    expect(transactions()).toBe(1);
  });

  it('a transient bounce publishes email.bounced and writes nothing else; without a reason a permanent one is "Bounced"', async () => {
    const soft = sinkWith([email('eml_1', 'a@example.com')]);
    await soft.sink.record(notice({ bounceType: 'transient' }));
    expect(soft.writes.slice(2)).toEqual([]);
    expect(soft.published[0]!.map((e) => e.payload.bounceType)).toEqual(['transient']);
    const hard = sinkWith([email('eml_1', 'a@example.com')]);
    await hard.sink.record(notice({ bounceType: 'permanent' }));
    expect(hard.writes.slice(2)).toEqual([
      ['bounced', 'eml_1', 'Bounced'],
      ['suppress', true, 'prj_1', 'a@example.com', 'bounce', null],
    ]);
  });

  it('a complaint marks each email, suppresses its address and publishes email.complained', async () => {
    const { sink, writes, published } = sinkWith([email('eml_1', 'a@example.com'), email('eml_2', 'b@example.com')]);
    await sink.record(notice({ type: 'complaint', recipients: ['a@example.com', 'b@example.com'] }));
    expect(writes.slice(2)).toEqual([
      ['complained', 'eml_1'],
      ['suppress', true, 'prj_1', 'a@example.com', 'complaint', null],
      ['complained', 'eml_2'],
      ['suppress', true, 'prj_1', 'b@example.com', 'complaint', null],
    ]);
    expect(published[0]!.map((e) => [e.type, e.payload.emailId])).toEqual([
      ['email.complained', 'eml_1'],
      ['email.complained', 'eml_2'],
    ]);
  });

  it('a delivery marks the email delivered and publishes email.delivered; no suppression', async () => {
    const { sink, writes, published } = sinkWith([email('eml_1', 'a@example.com')]);
    await sink.record(notice({ type: 'delivery' }));
    expect(writes.slice(2)).toEqual([['delivered', 'eml_1']]);
    expect(published[0]!.map((e) => e.type)).toEqual(['email.delivered']);
  });

  it('a notice that matches no email publishes nothing', async () => {
    const { sink, published } = sinkWith([]);
    expect(await sink.record(notice({ type: 'complaint' }))).toEqual({ duplicate: false, matched: 0 });
    expect(published).toEqual([[]]);
  });
});
