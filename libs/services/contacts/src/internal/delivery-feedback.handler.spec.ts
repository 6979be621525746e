import { EmailBounced, EmailComplained, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import type { EventContext } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import type { ContactWriter } from '../contacts/contact-writer.js';
import type { ContactStore } from '../contacts/contacts.store.js';
import { DeliveryFeedbackHandler } from './delivery-feedback.handler.js';

describe('delivery feedback: a hard bounce or a complaint unsubscribes the contact', () => {
  const handler = () => {
    const unsubscribed: string[] = [];
    const writer = {
      update: async (_m: EntityManager, _o: unknown, id: string) => void unsubscribed.push(id),
    } as unknown as ContactWriter;
    const contacts = {
      idOf: async (_m: EntityManager, _p: string, id: string) => id || null,
    } as unknown as ContactStore;
    return { h: new DeliveryFeedbackHandler(writer, contacts), unsubscribed };
  };
  const ctx = { manager: {} as EntityManager } as EventContext;
  const event = (contract: typeof EmailBounced, contactId: string, testMode?: true) =>
    contract.create({
      projectId: 'prj_1',
      source: 'sending',
      payload: {
        contactId,
        email: `${contactId}@example.com`,
        bounceType: 'permanent',
        ...(testMode ? { testMode } : {}),
      },
    }) as EventEnvelope<EmailLifecycleV1>;

  it('a live one unsubscribes; a simulated one of test mode (docs/test-mode.md) changes no contact', async () => {
    const { h, unsubscribed } = handler();
    await h.onBounced(event(EmailBounced, 'cnt_test', true), ctx);
    await h.onComplained(event(EmailComplained, 'cnt_test2', true), ctx);
    expect(unsubscribed).toEqual([]);
    await h.onBounced(event(EmailBounced, 'cnt_live'), ctx);
    await h.onComplained(event(EmailComplained, 'cnt_live2'), ctx);
    expect(unsubscribed).toEqual(['cnt_live', 'cnt_live2']);
  });
});
