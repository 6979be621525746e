import { SesNotificationError, sesDeliveryNotification } from './ses-notification.js';
import { SES } from './sns.spec-support.js';

const SNS_ID = 'b1f0c2d4-0000-4000-8000-000000000001';
const SNS_TIME = '2026-05-04T10:00:05.000Z';
const read = (m: object) => sesDeliveryNotification(SNS_ID, JSON.stringify(m), SNS_TIME);

describe('SES notifications (through SNS) normalised to delivery notifications', () => {
  it('reads a Permanent bounce as a permanent bounce of its recipients, with the original Message-ID and Herald email id', () => {
    expect(read(SES.permanentBounce)).toEqual({
      notificationId: SNS_ID,
      source: 'ses',
      type: 'bounce',
      bounceType: 'permanent',
      recipients: ['jane@example.org'],
      messageId: '<em_01jd7x3k9q@mail.example.com>',
      emailId: 'em_01jd7x3k9q',
      reason: 'Permanent/General; smtp; 550 5.1.1 user unknown',
      occurredAt: new Date('2026-05-04T10:00:00.477Z'),
    });
  });

  it('reads a Transient bounce as transient', () => {
    expect(read(SES.transientBounce)).toMatchObject({
      type: 'bounce',
      bounceType: 'transient',
      recipients: ['bob@example.net'],
      reason: 'Transient/MailboxFull; smtp; 452 4.2.2 mailbox full',
    });
  });

  it('reads an Undetermined bounce as transient (never suppresses on a guess)', () => {
    expect(read(SES.undeterminedBounce)).toMatchObject({ type: 'bounce', bounceType: 'transient' });
  });

  it('reads a complaint with its feedback type', () => {
    expect(read(SES.complaint)).toMatchObject({
      type: 'complaint',
      recipients: ['jane@example.org'],
      reason: 'abuse; ExampleCorp Feedback Loop (V0.01)',
      occurredAt: new Date('2026-05-04T10:01:02.000Z'),
    });
    expect(read(SES.complaint)).not.toHaveProperty('bounceType');
  });

  it('reads a delivery with the SMTP response', () => {
    expect(read(SES.delivery)).toMatchObject({
      type: 'delivery',
      recipients: ['jane@example.org'],
      reason: '250 ok:  Message 64111812 accepted',
    });
  });

  it('reads the event-publishing form (eventType) the same way', () => {
    expect(read(SES.eventPublishingBounce)).toMatchObject({
      type: 'bounce',
      bounceType: 'permanent',
      recipients: ['jane@example.org'],
    });
  });

  it('reports every bounced recipient of a multi-recipient bounce, once each', () => {
    const bounce = structuredClone(SES.permanentBounce);
    bounce.bounce.bouncedRecipients.push(
      { ...bounce.bounce.bouncedRecipients[0]!, emailAddress: 'bob@example.net' },
      { ...bounce.bounce.bouncedRecipients[0]! },
    );
    expect(read(bounce)!.recipients).toEqual(['jane@example.org', 'bob@example.net']);
  });

  it('falls back to the Message-ID header, then to the SES message id, when commonHeaders lack it', () => {
    const noCommon: { mail: Partial<typeof SES.permanentBounce.mail> } = structuredClone(SES.permanentBounce);
    delete noCommon.mail.commonHeaders;
    expect(read(noCommon)!.messageId).toBe('<em_01jd7x3k9q@mail.example.com>');
    delete noCommon.mail.headers;
    expect(read(noCommon)).toMatchObject({ messageId: '0100018f3a5b7c2d-9e8f7a6b-5c4d-3e2f-1a0b-9c8d7e6f5a4b-000000' });
    expect(read(noCommon)).not.toHaveProperty('emailId');
  });

  it('uses the SNS timestamp when the SES one is missing', () => {
    const bounce: { bounce: Partial<typeof SES.permanentBounce.bounce> } = structuredClone(SES.permanentBounce);
    delete bounce.bounce.timestamp;
    expect(read(bounce)!.occurredAt).toEqual(new Date(SNS_TIME));
  });

  it('ignores the topic-setup message and other SES event types (null)', () => {
    expect(read(SES.setup)).toBeNull();
    expect(read({ eventType: 'Open', open: {}, mail: {} })).toBeNull();
  });

  it.each([
    ['a Message that is not JSON', 'plain text'],
    ['a Message that is not an object', '[1,2]'],
    ['a bounce without its bounce object', JSON.stringify({ notificationType: 'Bounce', mail: {} })],
    [
      'a bounce naming no recipients',
      JSON.stringify({
        notificationType: 'Bounce',
        bounce: { bounceType: 'Permanent', bouncedRecipients: [] },
        mail: {},
      }),
    ],
    [
      'a delivery naming no recipients',
      JSON.stringify({ notificationType: 'Delivery', delivery: { recipients: [] }, mail: {} }),
    ],
  ])('refuses %s', (_, message) => {
    expect(() => sesDeliveryNotification(SNS_ID, message, SNS_TIME)).toThrow(SesNotificationError);
  });
});
