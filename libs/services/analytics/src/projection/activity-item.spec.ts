import { EmailOpened, EmailReceived, SegmentEntered, Topics, WorkflowWaiting } from '@herald/contracts';
import { isPrefetchOpen, toActivity } from './activity-item.js';

describe('feed items and the prefetch rule', () => {
  const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

  it('an email event becomes an item with its contact, email, campaign and relay details', () => {
    const e = EmailOpened.create({
      projectId: 'prj_1',
      source: 'test',
      payload: {
        emailId: 'eml_1',
        contactId: 'cnt_1',
        email: 'a@example.com',
        subject: 'Hi',
        campaignId: 'cmp_1',
        origin: 'campaign',
      },
    });
    expect(toActivity(e)).toMatchObject({
      type: Topics.EmailOpened,
      contactId: 'cnt_1',
      contactEmail: 'a@example.com',
      emailId: 'eml_1',
      emailSubject: 'Hi',
      campaignId: 'cmp_1',
      data: { origin: 'campaign' },
    });
  });

  it('a received message is an item with its sender, subject and the campaign of the email it answers', () => {
    const e = EmailReceived.create({
      projectId: 'prj_1',
      source: 'test',
      payload: {
        inboundId: 'inb_1',
        contactId: 'cnt_1',
        email: 'a@example.com',
        name: 'Ada',
        to: ['hello@brand.test'],
        subject: 'Re: Hi',
        inReplyToEmailId: 'eml_1',
        campaignId: 'cmp_1',
        attachments: 1,
        size: 900,
      },
    });
    expect(toActivity(e)).toEqual(
      expect.objectContaining({
        type: Topics.EmailReceived,
        contactId: 'cnt_1',
        contactEmail: 'a@example.com',
        emailId: null,
        emailSubject: null,
        campaignId: 'cmp_1',
        data: {
          inboundId: 'inb_1',
          subject: 'Re: Hi',
          name: 'Ada',
          to: ['hello@brand.test'],
          inReplyToEmailId: 'eml_1',
          attachments: 1,
        },
      }),
    );
    // from a sender who is no contact, or a null sender
    const anonymous = EmailReceived.create({
      projectId: 'prj_1',
      source: 'test',
      payload: { inboundId: 'inb_2', to: ['hello@brand.test'], attachments: 0, size: 10 },
    });
    expect(toActivity(anonymous)).toMatchObject({ contactId: null, contactEmail: null, data: { inboundId: 'inb_2' } });
  });

  it('a segment entry is an item; a workflow waiting is not (it feeds the upcoming list)', () => {
    const entered = SegmentEntered.create({
      projectId: 'prj_1',
      source: 'test',
      payload: {
        segmentId: 'seg_1',
        segmentName: 'VIP',
        contactId: 'cnt_1',
        email: 'a@example.com',
        at: t(0).toISOString(),
        reason: 'change',
      },
    });
    expect(toActivity(entered)).toMatchObject({
      type: 'segment.entered',
      data: { segmentId: 'seg_1', segmentName: 'VIP' },
    });
    const waiting = WorkflowWaiting.create({
      projectId: 'prj_1',
      source: 'test',
      payload: {
        workflowId: 'wf',
        workflowName: 'W',
        executionId: 'x',
        contactId: 'c',
        status: 'WAITING',
        at: t(0).toISOString(),
      },
    });
    expect(toActivity(waiting)).toBeNull();
  });

  it('an open within the window after delivery (or sending, without a delivery) is a prefetch; later it is not; unknown without either', () => {
    const window = 10_000;
    expect(isPrefetchOpen(t(15), { sentAt: t(0), deliveredAt: t(10) }, window)).toBe(true);
    expect(isPrefetchOpen(t(25), { sentAt: t(0), deliveredAt: t(10) }, window)).toBe(false);
    expect(isPrefetchOpen(t(5), { sentAt: t(0), deliveredAt: null }, window)).toBe(true);
    expect(isPrefetchOpen(t(5), { sentAt: t(0), deliveredAt: t(30) }, window)).toBe(true);
    expect(isPrefetchOpen(t(5), undefined, window)).toBeUndefined();
  });
});
