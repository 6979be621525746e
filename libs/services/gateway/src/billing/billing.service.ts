import { BILLING_CATEGORIES, type BillingCategory } from '@herald/contracts';
import { invalidInput } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { MANAGERS, requireMembership } from '../projects/project-access.js';
import { ReputationErrors } from '../reputation/reputation.errors.js';
import { BILLING_CLOCK, type BillingClock } from '../shared/billing-clock.js';
import { BillingErrors } from './billing.errors.js';
import type { BillingLimits } from './billing.entities.js';
import { BillingStore } from './billing.store.js';
import {
  billingPeriod,
  GAUGE_PERIOD_START,
  METERED,
  parseCaps,
  type BillingCaps,
  type Metered,
  type Period,
} from './billing-rules.js';

export interface BillingLimitsView extends BillingCaps {
  updatedAt: string | null;
}

export interface ConsumptionLine {
  used: number;
  /** Emails admitted while a cap applied (reserved before they are sent); a cap is checked against the larger of the two. */
  admitted?: number;
  /** null: no cap (events and stored contacts are metered, never capped). */
  cap: number | null;
  periodStart: string;
  periodEnd: string;
}

export interface ConsumptionView {
  projectId: string;
  periodStart: string;
  periodEnd: string;
  categories: Record<Metered, ConsumptionLine>;
}

/**
 * Caps and consumption: OWNER and ADMIN set caps per sending category (null: none), any member
 * reads them and the consumption of the current period; the sending service asks `admission`
 * before it accepts a send (the owner's answer: the caps as just written, never a stale copy).
 */
@Injectable()
export class BillingService {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @Inject(BILLING_CLOCK) private readonly clock: BillingClock,
    private readonly store: BillingStore,
  ) {}

  async limits(userId: string, projectId: string): Promise<BillingLimitsView> {
    await requireMembership(this.db.manager, userId, projectId);
    return this.limitsView(await this.store.limits(this.db.manager, projectId));
  }

  /** Only the categories named change; values are validated (422 with one error per field). */
  async setLimits(userId: string, projectId: string, body: unknown): Promise<BillingLimitsView> {
    const parsed = parseCaps(body);
    return this.db.transaction(async (m) => {
      await requireMembership(m, userId, projectId, MANAGERS);
      if ('problems' in parsed) throw invalidInput(parsed.problems);
      await this.writeCaps(m, projectId, parsed.caps, userId);
      return this.limitsView(await this.store.limits(m, projectId));
    });
  }

  /** Writes caps (a user's PUT, or a subscription's plan: `by` = `stripe`). */
  writeCaps(m: EntityManager, projectId: string, caps: Partial<BillingCaps>, by: string): Promise<void> {
    return this.store.writeCaps(m, projectId, caps, by);
  }

  async consumption(userId: string, projectId: string): Promise<ConsumptionView> {
    await requireMembership(this.db.manager, userId, projectId);
    const m = this.db.manager;
    const period = await this.periodOf(m, projectId, this.clock.now());
    const caps = await this.store.limits(m, projectId);
    const rows = await this.store.usageOf(m, projectId, [period.start, GAUGE_PERIOD_START]);
    const used = (k: Metered) =>
      rows.find((r) => r.category === k && r.periodStart.getTime() === (k === 'contacts' ? 0 : period.start.getTime()))
        ?.used ?? 0;
    const admitted = (k: Metered) =>
      rows.find((r) => r.category === k && r.periodStart.getTime() === period.start.getTime())?.admitted ?? 0;
    const line = (k: Metered): ConsumptionLine => ({
      used: used(k),
      ...((BILLING_CATEGORIES as readonly string[]).includes(k) ? { admitted: admitted(k) } : {}),
      cap: (BILLING_CATEGORIES as readonly string[]).includes(k) ? (caps?.[k as BillingCategory] ?? null) : null,
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
    });
    return {
      projectId,
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
      categories: Object.fromEntries(METERED.map((k) => [k, line(k)])) as Record<Metered, ConsumptionLine>,
    };
  }

  /**
   * May the project send `count` more emails of `category` now? Refuses with 403
   * PROJECT_SENDING_SUSPENDED while sending is suspended, and 429 BILLING_LIMIT_EXCEEDED (category,
   * reset time) when the period's usage plus `count` would pass the cap.
   */
  async admission(projectId: string, category: BillingCategory, count: number): Promise<{ allowed: true }> {
    const m = this.db.manager;
    // one statement: a suspension refuses whatever the cap
    const { suspension, caps } = await this.store.admissionOf(projectId);
    if (suspension) throw ReputationErrors.sendingSuspended(suspension.reason, suspension.suspendedAt);
    const cap = caps[category];
    if (cap === null) return { allowed: true };
    const now = this.clock.now();
    const period = await this.periodOf(m, projectId, now);
    // reserved atomically (BillingStore.reserve); more than the cap is refused without asking
    if (count <= cap && (await this.store.reserve(projectId, category, period, count, cap))) return { allowed: true };
    const usage = await this.store.usage(m, projectId, category, period.start);
    throw BillingErrors.limitExceeded(category, cap, Math.max(usage?.used ?? 0, usage?.admitted ?? 0), period.end, now);
  }

  private async periodOf(m: EntityManager, projectId: string, at: Date): Promise<Period> {
    const account = await this.store.account(m, projectId);
    return billingPeriod(at, account && { start: account.periodStart, end: account.periodEnd });
  }

  private limitsView(row: BillingLimits | null): BillingLimitsView {
    return {
      transactional: row?.transactional ?? null,
      campaign: row?.campaign ?? null,
      workflow: row?.workflow ?? null,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  }
}
