import { isReservedEventName } from './event-names.js';

describe('system event names may not be tracked by clients', () => {
  it.each([
    'email.sent',
    'email.delivered',
    'email.opened',
    'email.clicked',
    'email.bounced',
    'Email.Sent',
    'EMAIL.COMPLAINED',
    'contact.subscribed',
    'contact.unsubscribed',
    'Contact.Unsubscribed',
    'segment.entered',
    'segment.exited',
    'SEGMENT.Entry',
    ' email.sent ',
  ])('reserves %p', (name) => {
    expect(isReservedEventName(name)).toBe(true);
  });

  it.each([
    'signup',
    'purchase.completed',
    'email',
    'emails.sent',
    'email_sent',
    'contact.updated',
    'contact.subscribed.extra',
    'segment',
    'my.email.sent',
    'user.segment.entered',
  ])('allows %p', (name) => {
    expect(isReservedEventName(name)).toBe(false);
  });
});
