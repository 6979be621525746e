import { EmailBounced, EmailOpened, EmailSent, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import type { Outbox } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import { EmailHistory } from './email-history.js';
import type { EmailEventRow, EmailsStore } from './emails.store.js';

const m = {} as EntityManager;
const payload = (p: Partial<EmailLifecycleV1>): EmailLifecycleV1 => ({
  emailId: 'eml_1',
  email: 'a@example.com',
  subject: 'Hi',
  origin: 'api',
  ...p,
});

describe('EmailHistory: every email.* event published is recorded in its email’s history, in the same transaction', () => {
  it('records each event of an email with its type and the details it adds, then publishes them all', async () => {
    const recorded: EmailEventRow[][] = [];
    const added: EventEnvelope[] = [];
    const store = {
      recordEvents: async (tx: EntityManager, rows: EmailEventRow[]) => (expect(tx).toBe(m), void recorded.push(rows)),
    } as unknown as EmailsStore;
    const outbox = {
      add: async (tx: EntityManager, ...events: EventEnvelope[]) => (expect(tx).toBe(m), void added.push(...events)),
    } as unknown as Outbox;
    const sent = EmailSent.create({
      projectId: 'prj_1',
      source: 'sending',
      payload: payload({ messageId: 'm@brand.test', fromDomain: 'brand.test' }),
    });
    const bounced = EmailBounced.create({
      projectId: 'prj_1',
      source: 'sending',
      payload: payload({ bounceType: 'permanent', reason: '550' }),
    });
    const foreign = EmailOpened.create({
      projectId: 'prj_1',
      source: 'sending',
      payload: payload({ emailId: undefined }),
    });
    await new EmailHistory(outbox, store).publish(m, [sent, bounced, foreign]);
    expect(recorded).toEqual([
      [
        {
          eventId: sent.eventId,
          projectId: 'prj_1',
          emailId: 'eml_1',
          type: 'sent',
          occurredAt: sent.occurredAt,
          data: { messageId: 'm@brand.test' },
        },
        {
          eventId: bounced.eventId,
          projectId: 'prj_1',
          emailId: 'eml_1',
          type: 'bounced',
          occurredAt: bounced.occurredAt,
          data: { bounceType: 'permanent', reason: '550' },
        },
      ],
    ]);
    expect(added).toEqual([sent, bounced, foreign]);
  });

  it('events of no email are published without a history write', async () => {
    const recorded: unknown[] = [];
    const store = { recordEvents: async () => void recorded.push(1) } as unknown as EmailsStore;
    const outbox = { add: async () => undefined } as unknown as Outbox;
    await new EmailHistory(outbox, store).publish(m, [
      EmailOpened.create({ projectId: 'prj_1', source: 'sending', payload: payload({ emailId: undefined }) }),
    ]);
    expect(recorded).toEqual([]);
  });
});
