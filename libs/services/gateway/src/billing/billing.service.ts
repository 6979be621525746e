import { BILLING_CATEGORIES, type BillingCategory } from '@herald/contracts';
import { invalidInput } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { tableName } from '@herald/persistence';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { MANAGERS, requireMembership } from '../projects/project-access.js';
import { ReputationService } from '../reputation/reputation.service.js';
import { BILLING_CLOCK, type BillingClock } from './billing-clock.js';
import { BillingErrors } from './billing.errors.js';
import { BillingAccount, BillingLimits, BillingUsage } from './billing.entities.js';
import {
  billingPeriod,
  GAUGE_PERIOD_START,
  METERED,
  NO_CAPS,
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
    private readonly reputation: ReputationService,
  ) {}

  async limits(userId: string, projectId: string): Promise<BillingLimitsView> {
    await requireMembership(this.db.manager, userId, projectId);
    return this.limitsView(await this.db.getRepository(BillingLimits).findOneBy({ projectId }));
  }

  /** Only the categories named change; values are validated (422 with one error per field). */
  async setLimits(userId: string, projectId: string, body: unknown): Promise<BillingLimitsView> {
    const parsed = parseCaps(body);
    return this.db.transaction(async (m) => {
      await requireMembership(m, userId, projectId, MANAGERS);
      if ('problems' in parsed) throw invalidInput(parsed.problems);
      await this.writeCaps(m, projectId, parsed.caps, userId);
      return this.limitsView(await m.findOneBy(BillingLimits, { projectId }));
    });
  }

  /** Writes caps (a user's PUT, or a subscription's plan: `by` = `stripe`). */
  async writeCaps(m: EntityManager, projectId: string, caps: Partial<BillingCaps>, by: string): Promise<void> {
    await m
      .createQueryBuilder()
      .insert()
      .into(BillingLimits)
      .values({ projectId, ...NO_CAPS, ...caps, updatedBy: by })
      .orUpdate([...Object.keys(caps), 'updated_by', 'updated_at'], ['project_id'])
      .execute();
  }

  async consumption(userId: string, projectId: string): Promise<ConsumptionView> {
    await requireMembership(this.db.manager, userId, projectId);
    const m = this.db.manager;
    const period = await this.periodOf(m, projectId, this.clock.now());
    const caps = await m.findOneBy(BillingLimits, { projectId });
    const rows = await m.findBy(BillingUsage, {
      projectId,
      periodStart: In([period.start, GAUGE_PERIOD_START]),
    });
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
    await this.reputation.assertNotSuspended(m, projectId);
    const caps = await m.findOneBy(BillingLimits, { projectId });
    const cap = caps?.[category] ?? null;
    if (cap === null) return { allowed: true };
    const now = this.clock.now();
    const period = await this.periodOf(m, projectId, now);
    // reserve atomically: concurrent admissions of one project and category queue on the row, and
    // the one that would pass the cap updates nothing
    const table = tableName(m, BillingUsage);
    // A reservation lost in a crash only lets a few more sends through (the sent count still
    // catches up): it need not wait for the WAL flush, which is most of its cost.
    const reserved: unknown[] =
      count > cap
        ? []
        : await this.db.transaction(async (tx) => {
            await tx.query('SET LOCAL synchronous_commit TO OFF');
            return tx.query(
              `INSERT INTO ${table} (project_id, category, period_start, period_end, used, admitted) VALUES ($1, $2, $3, $4, 0, $5)
               ON CONFLICT (project_id, category, period_start) DO UPDATE SET admitted = ${table}.admitted + $5
                 WHERE GREATEST(${table}.admitted, ${table}.used) + $5 <= $6
               RETURNING used`,
              [projectId, category, period.start, period.end, count, cap],
            ) as Promise<unknown[]>;
          });
    if (reserved.length > 0) return { allowed: true };
    const usage = await m.findOneBy(BillingUsage, { projectId, category, periodStart: period.start });
    throw BillingErrors.limitExceeded(category, cap, Math.max(usage?.used ?? 0, usage?.admitted ?? 0), period.end, now);
  }

  private async periodOf(m: EntityManager, projectId: string, at: Date): Promise<Period> {
    const account = await m.findOneBy(BillingAccount, { projectId });
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
