import { EmailOpened, SegmentEntered, Topics, WorkflowWaiting } from '@herald/contracts';
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
