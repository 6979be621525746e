import { isReservedEventName } from '@herald/contact-data';
import { EmailBounced, EmailSent } from '@herald/contracts';
import { SYSTEM_EVENT_NAMES, timelineEntryOf } from './system-events.js';

describe('system event names', () => {
  it.each(SYSTEM_EVENT_NAMES)('%s is refused by /v1/track and by DELETE /events/:name (reserved)', (name) => {
    expect(isReservedEventName(name)).toBe(true);
  });
});

describe('the timeline of email events', () => {
  const sent = (testMode?: true) =>
    EmailSent.create({
      projectId: 'prj_1',
      source: 'sending',
      payload: { emailId: 'eml_1', contactId: 'cnt_1', email: 'Ann@Example.com', ...(testMode ? { testMode } : {}) },
    });

  it('an email event enters the contact timeline under its topic, the recipient not repeated in its data', () => {
    expect(timelineEntryOf(sent())).toMatchObject({
      contactId: 'cnt_1',
      email: 'ann@example.com',
      name: 'email.sent',
      data: { emailId: 'eml_1' },
    });
  });

  it('an email event of test mode (docs/test-mode.md) enters no timeline: a simulated email is no part of a live history', () => {
    expect(timelineEntryOf(sent(true))).toBeUndefined();
    const bounce = EmailBounced.create({
      projectId: 'prj_1',
      source: 'sending',
      payload: { emailId: 'eml_2', email: 'bounced@sandbox.herald.test', bounceType: 'permanent', testMode: true },
    });
    expect(timelineEntryOf(bounce)).toBeUndefined();
  });
});
