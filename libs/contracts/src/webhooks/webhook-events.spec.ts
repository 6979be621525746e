import { Topics } from '../topics.js';
import { ContactCreated } from '../events/contact-created/contact-created.v1.js';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, webhookPayload } from './webhook-events.js';

describe('webhook event types', () => {
  it('each type is the topic of its event contract, and a topic Herald publishes', () => {
    const topics = new Set<string>(Object.values(Topics));
    for (const [type, contract] of Object.entries(WEBHOOK_EVENTS)) {
      expect([type, contract.topic]).toEqual([type, type]);
      expect(topics.has(type)).toBe(true);
    }
    expect(WEBHOOK_EVENT_TYPES).toContain('email.delivered');
    expect(isWebhookEventType('event.tracked')).toBe(false);
    expect(isWebhookEventType('toString')).toBe(false);
  });

  it("a delivery's body is the event under public names: its type, contract version, id, time, project and payload", () => {
    const envelope = ContactCreated.create({
      projectId: 'prj_1',
      source: 'contacts',
      occurredAt: new Date('2026-01-02T03:04:05.000Z'),
      payload: { contactId: 'c1', email: 'a@example.com', subscribed: true, data: { plan: 'pro' } },
    });
    expect(webhookPayload(envelope)).toEqual({
      type: 'contact.created',
      version: 1,
      id: envelope.eventId,
      timestamp: '2026-01-02T03:04:05.000Z',
      projectId: 'prj_1',
      data: { contactId: 'c1', email: 'a@example.com', subscribed: true, data: { plan: 'pro' } },
    });
  });
});
