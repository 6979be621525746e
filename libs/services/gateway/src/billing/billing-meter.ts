import { BillingLimitReached, type BillingCategory, type EmailLifecycleV1 } from '@herald/contracts';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { ProjectMail } from '../projects/project-mail.js';
import { BILLING_CLOCK, type BillingClock } from '../shared/billing-clock.js';
import { BillingStore } from './billing.store.js';
import {
  billingPeriod,
  categoryOfOrigin,
  crossedLevels,
  GAUGE_PERIOD_START,
  type NoticeLevel,
  type Period,
} from './billing-rules.js';
import { MeteredEmailStore, type MeteredSend } from './metered-email.store.js';

export interface MeteredEvent {
  projectId: string;
  payload: EmailLifecycleV1;
  at: Date;
}

/** The email as the meter records it (its time already on the billing clock). */
const send = (e: MeteredEvent): MeteredSend => ({
  emailId: e.payload.emailId!, // the meter records only events that name their email
  projectId: e.projectId,
  category: categoryOfOrigin(e.payload.origin),
  at: e.at,
  senderDomain: e.payload.fromDomain?.toLowerCase() ?? null,
});

const GAUGE_PERIOD: Period = { start: GAUGE_PERIOD_START, end: new Date(Date.UTC(9999, 11, 31)) };

/**
 * Projects consumption from events, inside the transaction of the idempotent inbox (`ctx.manager`):
 * an email is counted once, by its first `email.sent` or `email.bounced` (its `metered_emails` row
 * is the natural key), in the period its event happened in, on the billing clock (an event's time
 * goes through `clock.fromReal`, so usage lands in the periods admission and consumption read). Crossing 80% and 100% of a cap emails the
 * owners once per period; reaching 100% also publishes `billing.limit.reached` through the outbox.
 */
@Injectable()
export class BillingMeter {
  constructor(
    @InjectOutbox(GATEWAY) private readonly outbox: Outbox,
    private readonly mail: ProjectMail,
    @Inject(BILLING_CLOCK) private readonly clock: BillingClock,
    private readonly store: BillingStore,
    private readonly emailStore: MeteredEmailStore,
  ) {}

  /** One email's `email.sent` / `email.bounced` (`bounced`): counts it if it is new; a bounce marks it. */
  email(m: EntityManager, projectId: string, p: EmailLifecycleV1, at: Date, bounced: boolean): Promise<void> {
    return this.emails(m, [{ projectId, payload: p, at }], bounced);
  }

  /**
   * A run of `email.sent` (or `email.bounced`) events with a few statements: one multi-row insert of
   * the emails (new ones are counted, known ones only marked bounced), then one counter update per
   * project, category and period.
   */
  async emails(m: EntityManager, events: MeteredEvent[], bounced: boolean): Promise<void> {
    const byId = new Map<string, MeteredEvent>();
    for (const e of events)
      if (e.payload.emailId && !byId.has(e.payload.emailId))
        byId.set(e.payload.emailId, { ...e, at: this.clock.fromReal(e.at) });
    if (byId.size === 0) return; // relay notices that matched no email of Herald's: nothing was sent by us
    const counted = await this.emailStore.record(m, [...byId.values()].map(send), bounced);
    const groups = new Map<string, { projectId: string; category: BillingCategory; n: number; at: Date }>();
    for (const emailId of counted) {
      const e = byId.get(emailId)!;
      const category = categoryOfOrigin(e.payload.origin);
      // one group per project, category and month; the provider's period is resolved in add()
      const key = `${e.projectId}|${category}|${e.at.getUTCFullYear()}-${e.at.getUTCMonth()}`;
      const g = groups.get(key) ?? { projectId: e.projectId, category, n: 0, at: e.at };
      g.n += 1;
      groups.set(key, g);
    }
    for (const g of [...groups.values()].sort((x, y) => x.projectId.localeCompare(y.projectId)))
      await this.add(m, g.projectId, g.category, g.n, g.at);
  }

  /** `email.complained`: marks the email (reputation); an email Herald never counted is recorded, not billed. */
  async complaint(m: EntityManager, projectId: string, p: EmailLifecycleV1, at: Date): Promise<void> {
    if (!p.emailId) return;
    await this.emailStore.complaint(m, send({ projectId, payload: p, at: this.clock.fromReal(at) }));
  }

  /** `event.tracked`: tracked events, each in the period it happened in. */
  async trackedEvents(m: EntityManager, projectId: string, times: Date[]): Promise<void> {
    const account = await this.store.account(m, projectId);
    const perPeriod = new Map<number, { period: Period; n: number }>();
    for (const real of times) {
      const period = billingPeriod(
        this.clock.fromReal(real),
        account && { start: account.periodStart, end: account.periodEnd },
      );
      const entry = perPeriod.get(period.start.getTime()) ?? { period, n: 0 };
      entry.n += 1;
      perPeriod.set(period.start.getTime(), entry);
    }
    for (const { period, n } of perPeriod.values()) await this.store.add(m, projectId, 'events', n, period);
  }

  /** `contact.created` (+n) / `contact.deleted` (-n): the stored-contacts gauge. */
  async contacts(m: EntityManager, projectId: string, delta: number): Promise<void> {
    await this.store.add(m, projectId, 'contacts', delta, GAUGE_PERIOD);
  }

  private async add(m: EntityManager, projectId: string, metered: BillingCategory, n: number, at: Date): Promise<void> {
    const account = await this.store.account(m, projectId);
    const period = billingPeriod(at, account && { start: account.periodStart, end: account.periodEnd });
    const used = await this.store.add(m, projectId, metered, n, period);
    const limits = await this.store.limits(m, projectId);
    const cap = limits?.[metered] ?? null;
    for (const level of crossedLevels(used - n, used, cap))
      await this.notice(m, projectId, metered, level, cap!, used, period);
  }

  /** Once per project, category, period and level: the row's notice column is the guard. */
  private async notice(
    m: EntityManager,
    projectId: string,
    category: BillingCategory,
    level: NoticeLevel,
    cap: number,
    used: number,
    period: Period,
  ): Promise<void> {
    if (!(await this.store.markNotice(m, projectId, category, level, period.start))) return;
    const resets = period.end.toISOString();
    await this.mail.notifyOwners(
      m,
      projectId,
      level === 100
        ? `Herald: the ${category} email cap is reached`
        : `Herald: ${level}% of the ${category} email cap is used`,
      `Your project ${projectId} has used ${used} of its ${cap} ${category} emails this billing period (${level}%).\n\n` +
        (level === 100
          ? `New ${category} sends are refused until the period resets at ${resets}.` +
            (category === 'campaign'
              ? ` A campaign that is sending stops at its next batch: its remaining recipients are skipped (reason billing_limit) and it ends with that stopped reason.`
              : '')
          : `At 100% new ${category} sends are refused until the period resets at ${resets}.`) +
        `\n\nRaise the cap in the project's billing settings if you need more.`,
    );
    if (level === 100)
      await this.outbox.add(
        m,
        BillingLimitReached.create({
          projectId,
          source: GATEWAY,
          payload: { category, cap, used, periodStart: period.start.toISOString(), periodEnd: resets },
        }),
      );
  }
}
