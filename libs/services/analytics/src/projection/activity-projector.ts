import { isTestModeEvent, Topics, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import type { EntityManager } from 'typeorm';
import { isPrefetchOpen, toActivity, type ActivityRow } from './activity-item.js';
import {
  campaignCounters,
  campaignEmails,
  campaignEngagements,
  distinctEngagements,
  hourlyCounts,
  linkUnsubscribes,
  minuteCounts,
  sentCandidates,
  sentHourlyCounts,
  trackedEmailTimes,
  typeCounts,
  unsubscribeCounters,
  unsubscribeEngagement,
} from './activity-counts.js';
import { ActivityStore } from './activity-store.js';
import { campaignReferenceRounds, campaignStateRounds, workflowStateRounds } from './entity-states.js';
import { EntityStatesStore } from './entity-states-store.js';

export { MINUTE_COUNTS_KEPT_MS } from './activity-counts.js';

/** A feed item of test mode (docs/test-mode.md): shown in the feed, counted by no aggregate. */
export const isTestModeItem = (r: ActivityRow): boolean => r.data.testMode === true;

export interface ProjectorOptions {
  /** The prefetch rule's window (docs/analytics.md). */
  prefetchWindowMs: number;
  /** An unsubscribe is put down to the contact's latest campaign email sent within this time. */
  unsubscribeAttributionMs: number;
}

/**
 * Applies a run of events to the projection, in the transaction that records them in the inbox:
 * feed items first (keyed by the source event id, so only events never seen before come back from
 * the insert), then the aggregates of exactly those items, each with one multi-row statement whose
 * rows are sorted so that concurrent batches take their row locks in the same order. Campaign and
 * workflow states are last-writer-wins by the event's own time, so a replay or a late older event
 * changes nothing. What each step adds is decided in `activity-counts.ts` and `entity-states.ts`; its
 * SQL is ActivityStore's and EntityStatesStore's. Test-mode email events (`testMode`, docs/test-mode.md)
 * make feed items, marked, and nothing else: no count, no sent or delivered time of their email.
 */
export class ActivityProjector {
  constructor(
    private readonly options: ProjectorOptions,
    private readonly store = new ActivityStore(),
    private readonly states = new EntityStatesStore(),
  ) {}

  async apply(m: EntityManager, events: EventEnvelope[]): Promise<void> {
    // sent and delivered times of each email (what the prefetch rule and the unsubscribe attribution read)
    const live = events.filter((e) => !isTestModeEvent(e as EventEnvelope<EmailLifecycleV1>));
    await this.store.trackEmails(m, trackedEmailTimes(live));
    const rows = events.map(toActivity).filter((r): r is ActivityRow => r !== null);
    if (rows.length > 0) {
      await this.flagPrefetch(m, rows);
      const inserted = (await this.store.insertItems(m, rows)).filter((r) => !isTestModeItem(r));
      if (inserted.length > 0) {
        await this.countSent(m, inserted);
        await this.store.addHourly(m, hourlyCounts(inserted));
        // minute counts serve `/activity/recent-count` (the last day at most): older items are not counted per minute
        const minutes = minuteCounts(inserted, Date.now());
        if (minutes.length > 0) await this.store.addMinutely(m, minutes);
        await this.store.addTypeCounts(m, typeCounts(inserted));
        await this.countCampaigns(m, inserted);
        await this.countUnsubscribes(m, inserted);
      }
    }
    for (const round of campaignReferenceRounds(events)) await this.states.campaignReferences(m, round);
    for (const round of campaignStateRounds(events)) await this.states.campaignStates(m, round);
    for (const round of workflowStateRounds(events)) await this.states.workflowStates(m, round);
  }

  /** Marks opens that the prefetch rule takes for a client's automatic fetch (`data.prefetch`). */
  private async flagPrefetch(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const opens = rows.filter((r) => r.type === Topics.EmailOpened && r.emailId);
    if (opens.length === 0) return;
    const known = await this.store.trackedTimes(m, [...new Set(opens.map((o) => o.emailId!))]);
    for (const o of opens) {
      const prefetch = isPrefetchOpen(new Date(o.occurredAt), known.get(o.emailId!), this.options.prefetchWindowMs);
      if (prefetch !== undefined) o.data = { ...o.data, prefetch };
    }
  }

  /**
   * The time series' `sent`: each email once, in the hour of the first of its `email.sent` and
   * `email.bounced` consumed (an email the relay refused at once has only the bounce; over Kafka a
   * later bounce may be consumed before its `email.sent`). The campaign counters' rule, per email.
   */
  private async countSent(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const { firstOfEmail, withoutEmail } = sentCandidates(rows);
    const counted = [...withoutEmail];
    if (firstOfEmail.length > 0) {
      const byEmail = new Map(firstOfEmail.map((r) => [r.emailId!, r]));
      for (const id of await this.store.markCountedSent(m, firstOfEmail)) counted.push(byEmail.get(id)!);
    }
    if (counted.length > 0) await this.store.addHourly(m, sentHourlyCounts(counted));
  }

  /** Per-campaign counters: totals of every email event of a campaign, unique opens and clicks per recipient. */
  private async countCampaigns(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const emails = campaignEmails(rows);
    if (emails.length === 0) return;
    const firsts = await this.store.firstEngagements(m, distinctEngagements(campaignEngagements(emails)));
    await this.store.addToCampaigns(m, campaignCounters(emails, firsts));
  }

  /**
   * An unsubscribe through an email's link counts once per recipient for the campaign whose email
   * the contact received last (within the attribution window): `contact.unsubscribed` names no email.
   * The campaign of every unsubscribe of the run is looked up at once, then counted like the others.
   */
  private async countUnsubscribes(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const unsubscribes = linkUnsubscribes(rows);
    if (unsubscribes.length === 0) return;
    const campaignOf = await this.store.lastCampaignBefore(m, unsubscribes, this.options.unsubscribeAttributionMs);
    const attributed = unsubscribes
      .filter((u) => campaignOf.has(u.eventId))
      .map((u) => unsubscribeEngagement(u, campaignOf.get(u.eventId)!));
    const firsts = await this.store.firstEngagements(m, distinctEngagements(attributed));
    const counters = unsubscribeCounters(attributed, firsts);
    if (counters.length > 0) await this.store.addToCampaigns(m, counters);
  }
}
