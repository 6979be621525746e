import type { BillingCategory } from '@herald/contracts';
import { commitWithoutFlushWait, queryPrepared, tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { SendingSuspension } from '../reputation/sending-suspension.entity.js';
import { BillingAccount, BillingLimits, BillingUsage } from './billing.entities.js';
import { NO_CAPS, type BillingCaps, type Metered, type NoticeLevel, type Period } from './billing-rules.js';

/**
 * A project's billing rows: its caps (`billing_limits`), its consumption per metered thing and period
 * (`billing_usage`: used, admitted, the notices sent) and its account at the payment provider
 * (`billing_accounts`, whose period is the billing period when it is known).
 */
@Injectable()
export class BillingStore {
  constructor(@InjectDataSource(GATEWAY) private readonly db: DataSource) {}

  account(m: EntityManager, projectId: string): Promise<BillingAccount | null> {
    return m.findOneBy(BillingAccount, { projectId });
  }

  limits(m: EntityManager, projectId: string): Promise<BillingLimits | null> {
    return m.findOneBy(BillingLimits, { projectId });
  }

  /**
   * What every admission reads, in one prepared statement on the pool (no transaction, no query
   * builder): the project's active sending suspension, if any (reputation's `sending_suspensions`,
   * at most one active), and its caps (null: none).
   */
  async admissionOf(projectId: string): Promise<{
    suspension: { reason: string; suspendedAt: Date } | null;
    caps: Record<BillingCategory, number | null>;
  }> {
    const [row] = await queryPrepared<
      { reason: string | null; suspended_at: Date | null } & Record<BillingCategory, number | null>
    >(
      this.db,
      `SELECT s.reason, s.suspended_at, l.transactional, l.campaign, l.workflow
         FROM (SELECT $1::varchar AS project_id) AS p
         LEFT JOIN ${tableName(this.db, SendingSuspension)} s ON s.project_id = p.project_id AND s.lifted_at IS NULL
         LEFT JOIN ${tableName(this.db, BillingLimits)} l ON l.project_id = p.project_id
        LIMIT 1`,
      [projectId],
    );
    return {
      suspension: row?.reason && row.suspended_at ? { reason: row.reason, suspendedAt: row.suspended_at } : null,
      caps: {
        transactional: row?.transactional ?? null,
        campaign: row?.campaign ?? null,
        workflow: row?.workflow ?? null,
      },
    };
  }

  /** Writes caps (a user's PUT, or a subscription's plan: `by` = `stripe`); the categories not named keep theirs. */
  async writeCaps(m: EntityManager, projectId: string, caps: Partial<BillingCaps>, by: string): Promise<void> {
    await m
      .createQueryBuilder()
      .insert()
      .into(BillingLimits)
      .values({ projectId, ...NO_CAPS, ...caps, updatedBy: by })
      .orUpdate([...Object.keys(caps), 'updated_by', 'updated_at'], ['project_id'])
      .execute();
  }

  /** The project's usage rows of the periods starting at `periodStarts`. */
  usageOf(m: EntityManager, projectId: string, periodStarts: Date[]): Promise<BillingUsage[]> {
    return m.findBy(BillingUsage, { projectId, periodStart: In(periodStarts) });
  }

  usage(m: EntityManager, projectId: string, category: string, periodStart: Date): Promise<BillingUsage | null> {
    return m.findOneBy(BillingUsage, { projectId, category, periodStart });
  }

  /** Adds `n` (negative: takes away, never under 0) to what is used in the period; the new total. */
  async add(m: EntityManager, projectId: string, metered: Metered, n: number, period: Period): Promise<number> {
    const table = tableName(m, BillingUsage);
    const rows: { used: number }[] = await m.query(
      `INSERT INTO ${table} (project_id, category, period_start, period_end, used) VALUES ($1, $2, $3, $4, GREATEST($5::int, 0))
       ON CONFLICT (project_id, category, period_start) DO UPDATE SET used = GREATEST(${table}.used + $5::int, 0)
       RETURNING used`,
      [projectId, metered, period.start, period.end, n],
    );
    return rows[0]!.used;
  }

  /** Records that the owners get the period's notice at `level`: true the first time only (the row's column is the guard). */
  async markNotice(
    m: EntityManager,
    projectId: string,
    category: BillingCategory,
    level: NoticeLevel,
    periodStart: Date,
  ): Promise<boolean> {
    const column = level === 100 ? 'notice_100_at' : 'notice_80_at';
    const [, affected] = (await m.query(
      `UPDATE ${tableName(m, BillingUsage)} SET ${column} = now()
        WHERE project_id = $1 AND category = $2 AND period_start = $3 AND ${column} IS NULL`,
      [projectId, category, periodStart],
    )) as [unknown, number];
    return Boolean(affected);
  }

  /**
   * Reserves `count` emails of the period under `cap`, atomically: concurrent admissions of one
   * project and category queue on the row, and the one that would pass the cap (the larger of the
   * emails sent and admitted, plus `count`) updates nothing. True when reserved.
   */
  async reserve(
    projectId: string,
    category: BillingCategory,
    period: Period,
    count: number,
    cap: number,
  ): Promise<boolean> {
    const table = tableName(this.db, BillingUsage);
    // A reservation lost in a crash only lets a few more sends through (the sent count still
    // catches up): it need not wait for the WAL flush, which is most of its cost.
    const reserved = await this.db.transaction(async (tx) => {
      await commitWithoutFlushWait(tx);
      return tx.query(
        `INSERT INTO ${table} (project_id, category, period_start, period_end, used, admitted) VALUES ($1, $2, $3, $4, 0, $5)
         ON CONFLICT (project_id, category, period_start) DO UPDATE SET admitted = ${table}.admitted + $5
           WHERE GREATEST(${table}.admitted, ${table}.used) + $5 <= $6
         RETURNING used`,
        [projectId, category, period.start, period.end, count, cap],
      ) as Promise<unknown[]>;
    });
    return reserved.length > 0;
  }
}
