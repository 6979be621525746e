import { EmailReceived, Topics, type EventEnvelope } from '@herald/contracts';
import { ActivityEvents } from './activity-events.spec-support.js';
import { SENT_METRIC_TYPE, toActivity, type ActivityRow } from './activity-item.js';
import {
  campaignCounters,
  campaignEmails,
  campaignEngagements,
  distinctEngagements,
  hourlyCounts,
  linkUnsubscribes,
  minuteCounts,
  MINUTE_COUNTS_KEPT_MS,
  sentCandidates,
  sentHourlyCounts,
  trackedEmailTimes,
  typeCounts,
  unsubscribeCounters,
  unsubscribeEngagement,
} from './activity-counts.js';
import type { Engagement } from './activity-store.js';

const t0 = Date.UTC(2026, 5, 1, 10, 0, 0);
const at = (seconds: number) => new Date(t0 + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();
const ev = new ActivityEvents('prj_a');
const other = new ActivityEvents('prj_b');
const row = (e: EventEnvelope) => toActivity(e)!;
const c = { campaignId: 'cmp_1', origin: 'campaign' as const };

describe('activity counts: what a run of events adds to the aggregates', () => {
  it('tracked emails: the earliest email.sent and email.delivered of each email, by email id; other events ignored', () => {
    const times = trackedEmailTimes([
      ev.email('delivered', at(20), { emailId: 'eml_b', contactId: 'cnt_b' }),
      ev.email('sent', at(5), { ...c, emailId: 'eml_a', contactId: 'cnt_a' }),
      ev.email('sent', at(3), { ...c, emailId: 'eml_a', contactId: 'cnt_a' }),
      ev.email('delivered', at(10), { emailId: 'eml_b', contactId: 'cnt_b' }),
      ev.email('opened', at(30), { emailId: 'eml_c', contactId: 'cnt_c' }),
      ev.tracked(at(1), 'cnt_a', 'signed_up'),
    ]);
    expect(times).toEqual([
      { emailId: 'eml_a', projectId: 'prj_a', contactId: 'cnt_a', campaignId: 'cmp_1', sent: iso(3), delivered: null },
      { emailId: 'eml_b', projectId: 'prj_a', contactId: 'cnt_b', campaignId: null, sent: null, delivered: iso(10) },
    ]);
  });

  it('hourly counts: items summed per project, UTC hour and type, in key order', () => {
    const rows = [
      row(other.email('opened', at(1), { emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('opened', at(3700), { emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('opened', at(1), { emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('opened', at(3599), { emailId: 'eml_2', contactId: 'cnt_2' })),
      row(ev.email('clicked', at(2), { emailId: 'eml_1', contactId: 'cnt_1' })),
    ];
    expect(hourlyCounts(rows)).toEqual([
      { projectId: 'prj_a', hour: iso(0), type: Topics.EmailClicked, n: 1 },
      { projectId: 'prj_a', hour: iso(0), type: Topics.EmailOpened, n: 2 },
      { projectId: 'prj_a', hour: iso(3600), type: Topics.EmailOpened, n: 1 },
      { projectId: 'prj_b', hour: iso(0), type: Topics.EmailOpened, n: 1 },
    ]);
  });

  it('sent candidates: the first email.sent or email.bounced of each email, and every email.sent that names no email', () => {
    const bounce = row(ev.email('bounced', at(2), { emailId: 'eml_b', contactId: 'cnt_b' }));
    const laterSent = row(ev.email('sent', at(9), { emailId: 'eml_b', contactId: 'cnt_b' }));
    const sent = row(ev.email('sent', at(1), { emailId: 'eml_a', contactId: 'cnt_a' }));
    const anonymous = { ...row(ev.email('sent', at(4), { emailId: 'x', contactId: 'cnt_x' })), emailId: null };
    const anonymousBounce = { ...row(ev.email('bounced', at(4), { emailId: 'y', contactId: 'cnt_y' })), emailId: null };
    const opened = row(ev.email('opened', at(0), { emailId: 'eml_a', contactId: 'cnt_a' }));
    const { firstOfEmail, withoutEmail } = sentCandidates([
      laterSent,
      opened,
      anonymous,
      bounce,
      sent,
      anonymousBounce,
    ]);
    expect(firstOfEmail).toEqual([sent, bounce]);
    expect(withoutEmail).toEqual([anonymous]);
    expect(sentHourlyCounts([sent, bounce, anonymous])).toEqual([
      { projectId: 'prj_a', hour: iso(0), type: SENT_METRIC_TYPE, n: 3 },
    ]);
  });

  it('minute counts: items of the last two days only, summed per project and minute', () => {
    const now = t0 + 3_600_000;
    const rows = [
      row(ev.email('opened', at(61), { emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('clicked', at(119), { emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('opened', new Date(now - MINUTE_COUNTS_KEPT_MS - 1000), { emailId: 'eml_2', contactId: 'cnt_2' })),
      row(ev.email('opened', new Date(now - MINUTE_COUNTS_KEPT_MS), { emailId: 'eml_3', contactId: 'cnt_3' })),
    ];
    expect(minuteCounts(rows, now)).toEqual([
      { projectId: 'prj_a', minute: new Date(now - MINUTE_COUNTS_KEPT_MS).toISOString(), n: 1 },
      { projectId: 'prj_a', minute: iso(60), n: 2 },
    ]);
  });

  it('type counts: items per project and type, with the latest time of each', () => {
    const rows = [
      row(ev.email('opened', at(5), { emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('opened', at(50), { emailId: 'eml_2', contactId: 'cnt_2' })),
      row(ev.email('opened', at(7), { emailId: 'eml_3', contactId: 'cnt_3' })),
      row(ev.tracked(at(1), 'cnt_1', 'signed_up')),
    ];
    expect(typeCounts(rows)).toEqual([
      { projectId: 'prj_a', type: Topics.EmailOpened, lastSeenAt: iso(50), n: 3 },
      { projectId: 'prj_a', type: Topics.EventTracked, lastSeenAt: iso(1), n: 1 },
    ]);
  });

  it('campaign engagements: opens, clicks, and sent for an email.sent or a bounce, by contact (or address); the first of each key kept', () => {
    const emails = campaignEmails([
      row(ev.email('sent', at(1), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('bounced', at(2), { ...c, emailId: 'eml_2', contactId: 'cnt_2' })),
      row(ev.email('delivered', at(3), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('opened', at(4), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('opened', at(5), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('opened', at(6), { emailId: 'eml_9', contactId: 'cnt_9' })), // no campaign
      row(ev.tracked(at(7), 'cnt_1', 'signed_up')),
      // a reply to the campaign's email is no email of the campaign: it counts nothing there
      row(
        EmailReceived.create({
          projectId: 'prj_a',
          source: 'test',
          occurredAt: at(8),
          payload: { inboundId: 'inb_1', contactId: 'cnt_1', campaignId: 'cmp_1', to: [], attachments: 0, size: 1 },
        }),
      ),
    ]);
    expect(emails).toHaveLength(5);
    const engagements = campaignEngagements(emails);
    expect(engagements.map((e) => [e.recipient, e.kind])).toEqual([
      ['cnt_1', 'sent'],
      ['cnt_2', 'sent'],
      ['cnt_1', 'open'],
      ['cnt_1', 'open'],
    ]);
    const distinct = distinctEngagements([...engagements].reverse());
    expect(distinct.map((e) => [e.recipient, e.kind, e.eventId])).toEqual([
      ['cnt_1', 'open', emails[4]!.eventId],
      ['cnt_1', 'sent', emails[0]!.eventId],
      ['cnt_2', 'sent', emails[1]!.eventId],
    ]);
  });

  it('campaign counters: every email event counts in its total; unique opens and clicks and sent only for a recipient’s first', () => {
    const rows: ActivityRow[] = [
      row(ev.email('sent', at(1), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('sent', at(1), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('bounced', at(2), { ...c, emailId: 'eml_2', contactId: 'cnt_2' })),
      row(ev.email('delivered', at(3), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      { ...row(ev.email('opened', at(4), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })), data: { prefetch: true } },
      row(ev.email('opened', at(5), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('clicked', at(6), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('complained', at(7), { ...c, emailId: 'eml_1', contactId: 'cnt_1' })),
      row(ev.email('sent', at(8), { campaignId: 'cmp_0', emailId: 'eml_3', contactId: 'cnt_3' })),
    ];
    const firsts = new Set([rows[0]!, rows[2]!, rows[4]!, rows[6]!].map((r) => r.eventId));
    expect(campaignCounters(rows, firsts)).toEqual([
      { projectId: 'prj_a', campaignId: 'cmp_0', counts: {} },
      {
        projectId: 'prj_a',
        campaignId: 'cmp_1',
        counts: {
          sent: 2,
          bounces: 1,
          delivered: 1,
          opens_total: 2,
          opens_unique: 1,
          opens_prefetch: 1,
          clicks_total: 1,
          clicks_unique: 1,
          complaints: 1,
        },
      },
    ]);
  });

  it('unsubscribes: through an email’s link only; each counts once for its campaign when it was the recipient’s first', () => {
    const viaLink = row(ev.unsubscribed(at(1), 'cnt_1'));
    const again = row(ev.unsubscribed(at(2), 'cnt_1'));
    const byApi = row(ev.unsubscribed(at(3), 'cnt_2', 'api'));
    const elsewhere = row(other.unsubscribed(at(4), 'cnt_3'));
    expect(linkUnsubscribes([viaLink, again, byApi, elsewhere])).toEqual([viaLink, again, elsewhere]);
    const attributed: Engagement[] = [
      unsubscribeEngagement(viaLink, 'cmp_1'),
      unsubscribeEngagement(again, 'cmp_1'),
      unsubscribeEngagement(elsewhere, 'cmp_9'),
    ];
    expect(attributed[0]).toEqual({
      projectId: 'prj_a',
      campaignId: 'cmp_1',
      recipient: 'cnt_1',
      kind: 'unsubscribe',
      eventId: viaLink.eventId,
    });
    expect(unsubscribeCounters(attributed, new Set([viaLink.eventId, elsewhere.eventId]))).toEqual([
      { projectId: 'prj_a', campaignId: 'cmp_1', counts: { unsubscribes: 1 } },
      { projectId: 'prj_b', campaignId: 'cmp_9', counts: { unsubscribes: 1 } },
    ]);
  });
});
