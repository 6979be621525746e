import {
  ContactSubscribed,
  ContactUnsubscribed,
  EmailBounced,
  EmailClicked,
  EmailFailed,
  EmailOpened,
  EmailReceived,
  EmailSent,
  EventTracked,
  SegmentEntered,
  SegmentExited,
  Topics,
  type EventEnvelope,
} from '@herald/contracts';
import type { EventRoute } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import { PATTERN_METADATA } from '@nestjs/microservices/constants.js';
import type { DataSource } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import { contactsSchema } from '../contacts.module.js';
import { SYSTEM_EVENT_NAMES } from './system-events.js';
import { TimelineHandler } from './timeline.handler.js';
import { TimelineProjection } from './timeline.projection.js';
import { TrackedEventsStore } from './tracked-events.store.js';

/** The projection of Herald's own topics into contacts' timelines, on real PostgreSQL. */
describe('TimelineProjection (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const timeline = new TimelineProjection(new TrackedEventsStore());
  const projectId = 'prj_timeline_int';
  const contactId = 'cnt_timeline_ada';
  const email = { emailId: 'eml_1', contactId, email: 'ada@example.com', subject: 'Welcome', origin: 'api' as const };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
    await ds.query(`INSERT INTO contacts.contacts (id, project_id, email) VALUES ($1, $2, 'ada@example.com')`, [
      contactId,
      projectId,
    ]);
  });
  beforeEach(() => ds.query(`DELETE FROM contacts.tracked_events`));
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const project = (events: EventEnvelope[]) => ds.transaction((m) => timeline.project(m, events));
  const entries = async () =>
    (await ds.query(
      `SELECT contact_id, name, data, system, created_at FROM contacts.tracked_events WHERE project_id = $1 ORDER BY created_at, name`,
      [projectId],
    )) as { contact_id: string; name: string; data: Record<string, unknown>; system: boolean; created_at: Date }[];
  const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s));

  it('records subscription changes with their cause and email events with the email id and subject, as system events at the time they happened', async () => {
    await project([
      EmailSent.create({ projectId, source: 'sending', occurredAt: at(1), payload: { ...email, messageId: 'm@x' } }),
      EmailOpened.create({ projectId, source: 'sending', occurredAt: at(2), payload: email }),
      EmailClicked.create({ projectId, source: 'sending', occurredAt: at(3), payload: { ...email, url: 'https://x' } }),
      ContactUnsubscribed.create({
        projectId,
        source: 'contacts',
        occurredAt: at(4),
        payload: { contactId, email: 'ada@example.com', reason: 'unsubscribe-link' },
      }),
    ]);
    expect(await entries()).toEqual([
      {
        contact_id: contactId,
        name: 'email.sent',
        data: { emailId: 'eml_1', subject: 'Welcome', origin: 'api', messageId: 'm@x' },
        system: true,
        created_at: at(1),
      },
      {
        contact_id: contactId,
        name: 'email.opened',
        data: { emailId: 'eml_1', subject: 'Welcome', origin: 'api' },
        system: true,
        created_at: at(2),
      },
      {
        contact_id: contactId,
        name: 'email.clicked',
        data: { emailId: 'eml_1', subject: 'Welcome', origin: 'api', url: 'https://x' },
        system: true,
        created_at: at(3),
      },
      {
        contact_id: contactId,
        name: 'contact.unsubscribed',
        data: { reason: 'unsubscribe-link' },
        system: true,
        created_at: at(4),
      },
    ]);
  });

  it("records a failed email with its id, subject and the relay's reason", async () => {
    await project([
      EmailFailed.create({
        projectId,
        source: 'sending',
        occurredAt: at(8),
        payload: { ...email, reason: '554 5.7.1 Message rejected', fromDomain: 'example.com' },
      }),
    ]);
    expect(await entries()).toEqual([
      {
        contact_id: contactId,
        name: 'email.failed',
        data: {
          emailId: 'eml_1',
          subject: 'Welcome',
          origin: 'api',
          reason: '554 5.7.1 Message rejected',
          fromDomain: 'example.com',
        },
        system: true,
        created_at: at(8),
      },
    ]);
  });

  it('records a message the contact wrote in with its inbound id, subject and the email it answers; nothing for a null sender', async () => {
    const received = {
      inboundId: 'inb_1',
      to: ['hello@brand.test'],
      subject: 'Re: Welcome',
      attachments: 0,
      size: 420,
    };
    await project([
      EmailReceived.create({
        projectId,
        source: 'sending',
        occurredAt: at(9),
        payload: { ...received, contactId, email: 'ada@example.com', inReplyToEmailId: 'eml_1', campaignId: 'cmp_1' },
      }),
      // named by address only (the sender was no contact when it arrived): matched like a relay notice
      EmailReceived.create({
        projectId,
        source: 'sending',
        occurredAt: at(10),
        payload: { ...received, inboundId: 'inb_2', email: 'Ada@Example.com' },
      }),
      EmailReceived.create({
        projectId,
        source: 'sending',
        occurredAt: at(11),
        payload: { ...received, inboundId: 'inb_3' },
      }),
    ]);
    expect(await entries()).toEqual([
      {
        contact_id: contactId,
        name: 'email.received',
        data: { ...received, inReplyToEmailId: 'eml_1', campaignId: 'cmp_1' },
        system: true,
        created_at: at(9),
      },
      {
        contact_id: contactId,
        name: 'email.received',
        data: { ...received, inboundId: 'inb_2' },
        system: true,
        created_at: at(10),
      },
    ]);
  });

  it('is fed every topic of the timeline: contacts subscribes to each system event, email.failed included, and to segment entries and exits', () => {
    const handler = TimelineHandler.prototype as unknown as Record<string, unknown>;
    const routes = Object.getOwnPropertyNames(handler).flatMap(
      (name) => (Reflect.getMetadata(PATTERN_METADATA, handler[name] as object) as EventRoute[] | undefined) ?? [],
    );
    expect(routes.every((r) => r.consumer === CONTACTS)).toBe(true);
    expect(routes.map((r) => r.topic).sort()).toEqual(
      [...SYSTEM_EVENT_NAMES, Topics.SegmentEntered, Topics.SegmentExited].sort(),
    );
  });

  it('finds the contact by address when the event names no contact (a relay notice), case-insensitively', async () => {
    await project([
      EmailBounced.create({
        projectId,
        source: 'sending',
        payload: { email: 'Ada@Example.com', bounceType: 'permanent', reason: '550 No such user' },
      }),
    ]);
    expect(await entries()).toMatchObject([
      { contact_id: contactId, name: 'email.bounced', data: { bounceType: 'permanent', reason: '550 No such user' } },
    ]);
  });

  it('adds nothing when the same events are projected again (a replayed topic, past the inbox)', async () => {
    const events = [
      EmailSent.create({ projectId, source: 'sending', payload: email }),
      ContactSubscribed.create({
        projectId,
        source: 'contacts',
        payload: { contactId, email: email.email, reason: 'api' },
      }),
    ];
    expect(await project(events)).toBe(2);
    expect(await project(events)).toBe(0);
    expect(await project([events[1]!])).toBe(0);
    expect((await entries()).map((e) => e.name).sort()).toEqual(['contact.subscribed', 'email.sent']);
  });

  it('drops events of a contact that does not exist (deleted, or an address that is no contact), and ignores other topics', async () => {
    const inserted = await project([
      EmailOpened.create({
        projectId,
        source: 'sending',
        payload: { ...email, contactId: 'cnt_gone', email: 'gone@example.com' },
      }),
      EmailOpened.create({ projectId: 'prj_other', source: 'sending', payload: email }),
      EventTracked.create({
        projectId,
        source: 'contacts',
        payload: { eventRecordId: 'evt_1', contactId, email: email.email, name: 'signup', data: {} },
      }),
    ]);
    expect(inserted).toBe(0);
    expect(await entries()).toEqual([]);
  });

  it('shows segment entries and exits as segment.<slug>.entry / .exit system events, with the segment and the reason', async () => {
    const membership = { segmentId: 'seg_1', contactId, email: 'ada@example.com' };
    await project([
      SegmentEntered.create({
        projectId,
        source: 'segments',
        occurredAt: at(5),
        payload: { ...membership, segmentName: 'Power Users (EU) — Café', at: at(5).toISOString(), reason: 'change' },
      }),
      SegmentExited.create({
        projectId,
        source: 'segments',
        occurredAt: at(6),
        payload: { ...membership, segmentName: 'Power Users (EU) — Café', at: at(6).toISOString(), reason: 'sweep' },
      }),
      SegmentEntered.create({
        projectId,
        source: 'segments',
        occurredAt: at(7),
        payload: { ...membership, segmentId: 'seg_2', segmentName: '🚀', at: at(7).toISOString(), reason: 'compute' },
      }),
    ]);
    expect((await entries()).map(({ name, data, system }) => ({ name, data, system }))).toEqual([
      {
        name: 'segment.power-users-eu-cafe.entry',
        data: { segmentId: 'seg_1', segmentName: 'Power Users (EU) — Café', reason: 'change' },
        system: true,
      },
      {
        name: 'segment.power-users-eu-cafe.exit',
        data: { segmentId: 'seg_1', segmentName: 'Power Users (EU) — Café', reason: 'sweep' },
        system: true,
      },
      { name: 'segment.seg_2.entry', data: { segmentId: 'seg_2', segmentName: '🚀', reason: 'compute' }, system: true },
    ]);
  });
});
