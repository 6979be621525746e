import { ProjectSendingResumed, ProjectSendingSuspended } from '@herald/contracts';
import { newId } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AccountMail } from '../accounts/account-mail.js';
import { BILLING_CLOCK, type BillingClock } from '../billing/billing-clock.js';
import { BillingErrors } from '../billing/billing.errors.js';
import { MeteredEmail } from '../billing/billing.entities.js';
import { GATEWAY } from '../consumer.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { requireMembership } from '../projects/project-access.js';
import { judge, rates, type ReputationThresholds, type WindowRates } from './reputation-rules.js';
import { SendingSuspension } from './sending-suspension.entity.js';

const WINDOW_DAYS = 7;
const WINDOW_SENDS = 1000;

export interface SuspensionView {
  id: string;
  reason: string;
  bounceRate: number;
  complaintRate: number;
  sends: number;
  suspendedAt: string;
  liftedAt: string | null;
  liftedBy: string | null;
}

export interface SecurityView {
  projectId: string;
  /** `suspended` (sends refused), `warning` (a warn threshold passed) or `active`. */
  status: 'active' | 'warning' | 'suspended';
  warning: 'bounce_rate' | 'complaint_rate' | null;
  rates: { last7Days: WindowRates; last1000Sends: WindowRates };
  /** The last 7 days per sender domain (most sends first, at most 20): one bad list can burn a shared domain. */
  domains: (WindowRates & { domain: string })[];
  thresholds: ReputationThresholds;
  suspension: SuspensionView | null;
  recentSuspensions: SuspensionView[];
}

const view = (s: SendingSuspension): SuspensionView => ({
  id: s.id,
  reason: s.reason,
  bounceRate: s.bounceRate,
  complaintRate: s.complaintRate,
  sends: s.sends,
  suspendedAt: s.suspendedAt.toISOString(),
  liftedAt: s.liftedAt?.toISOString() ?? null,
  liftedBy: s.liftedBy,
});

/**
 * Sender reputation: bounce and complaint rates per project over two windows (the last 7 days, the
 * last 1,000 sends), both starting no earlier than the last lifted suspension, so that a lift gives
 * the project a fresh start instead of an immediate re-suspension. A breach (docs/billing.md)
 * suspends sending: recorded with its reason and rates, published (`project.sending.suspended`) and
 * emailed to the owners, all in the transaction of the event that caused it. From then on admission
 * refuses every new send (403 PROJECT_SENDING_SUSPENDED), a campaign's next batch included: a sending
 * campaign stops there, its remaining recipients end `skipped: sending_suspended`, and it ends with
 * `stoppedReason: sending_suspended` (the campaigns service decides that, on the refusal).
 */
@Injectable()
export class ReputationService {
  readonly thresholds: ReputationThresholds;

  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @Inject(GATEWAY_SETTINGS) settings: GatewaySettings,
    @Inject(BILLING_CLOCK) private readonly clock: BillingClock,
    @InjectOutbox(GATEWAY) private readonly outbox: Outbox,
    private readonly mail: AccountMail,
  ) {
    this.thresholds = {
      complaintWarn: settings.REPUTATION_COMPLAINT_WARN,
      complaintSuspend: settings.REPUTATION_COMPLAINT_SUSPEND,
      bounceWarn: settings.REPUTATION_BOUNCE_WARN,
      bounceSuspend: settings.REPUTATION_BOUNCE_SUSPEND,
      minSends: settings.REPUTATION_MIN_SENDS,
    };
  }

  /** After a bounce or complaint was recorded (in its event's transaction): suspends on a breach. */
  async evaluate(m: EntityManager, projectId: string): Promise<void> {
    if (await this.active(m, projectId)) return;
    const windows = await this.windows(m, projectId);
    const verdict = judge([windows.last7Days, windows.last1000Sends], this.thresholds);
    if (verdict.status !== 'breach') return;
    const now = this.clock.now();
    const id = newId('sus');
    const inserted: unknown[] = await m.query(
      `INSERT INTO ${tableName(m, SendingSuspension)} (id, project_id, reason, bounce_rate, complaint_rate, sends, suspended_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [
        id,
        projectId,
        verdict.reason,
        verdict.window.bounceRate,
        verdict.window.complaintRate,
        verdict.window.sends,
        now,
      ],
    );
    if (inserted.length === 0) return;
    const w = verdict.window;
    await this.outbox.add(
      m,
      ProjectSendingSuspended.create({
        projectId,
        source: GATEWAY,
        payload: {
          suspensionId: id,
          reason: verdict.reason,
          bounceRate: w.bounceRate,
          complaintRate: w.complaintRate,
          at: now.toISOString(),
        },
      }),
    );
    await this.mail.notifyOwners(
      m,
      projectId,
      'Herald: sending is suspended for your project',
      `Sending for project ${projectId} was suspended at ${now.toISOString()}: over the last ${w.sends} sends the ` +
        `bounce rate is ${pct(w.bounceRate)} and the complaint rate ${pct(w.complaintRate)} ` +
        `(suspension thresholds: bounces ${pct(this.thresholds.bounceSuspend)}, complaints ${pct(this.thresholds.complaintSuspend)}).\n\n` +
        `New sends are refused. A campaign that is sending stops at its next batch: its remaining recipients ` +
        `are skipped (reason sending_suspended) and it ends with that stopped reason; it is not resumed when the ` +
        `suspension is lifted. Remove the addresses that bounce or complain, then an OWNER can lift the suspension from the project's security page.`,
    );
  }

  /** Refuses when sending is suspended (the owner's answer to the sending service). */
  async assertNotSuspended(m: EntityManager, projectId: string): Promise<void> {
    const active = await this.active(m, projectId);
    if (active) throw BillingErrors.sendingSuspended(active.reason, active.suspendedAt);
  }

  async security(userId: string, projectId: string): Promise<SecurityView> {
    await requireMembership(this.db.manager, userId, projectId);
    const m = this.db.manager;
    const windows = await this.windows(m, projectId);
    const verdict = judge([windows.last7Days, windows.last1000Sends], this.thresholds);
    const recent = await m.find(SendingSuspension, {
      where: { projectId },
      order: { suspendedAt: 'DESC' },
      take: 10,
    });
    const active = recent.find((s) => s.liftedAt === null) ?? null;
    return {
      projectId,
      status: active ? 'suspended' : verdict.status === 'ok' ? 'active' : 'warning',
      warning: verdict.status === 'ok' ? null : verdict.reason,
      rates: windows,
      domains: await this.byDomain(m, projectId),
      thresholds: this.thresholds,
      suspension: active && view(active),
      recentSuspensions: recent.map(view),
    };
  }

  /** An OWNER lifts the suspension; the lift is recorded and published. */
  async lift(userId: string, projectId: string): Promise<SuspensionView> {
    return this.db.transaction(async (m) => {
      await requireMembership(m, userId, projectId, ['OWNER']);
      const active = await this.active(m, projectId, true);
      if (!active) throw BillingErrors.notSuspended();
      const now = this.clock.now();
      await m.update(SendingSuspension, { id: active.id }, { liftedAt: now, liftedBy: userId });
      await this.outbox.add(
        m,
        ProjectSendingResumed.create({
          projectId,
          source: GATEWAY,
          payload: { suspensionId: active.id, reason: 'lifted', at: now.toISOString(), liftedBy: userId },
        }),
      );
      return view({ ...active, liftedAt: now, liftedBy: userId });
    });
  }

  private active(m: EntityManager, projectId: string, lock = false): Promise<SendingSuspension | null> {
    const q = m
      .getRepository(SendingSuspension)
      .createQueryBuilder('s')
      .where('s.project_id = :projectId AND s.lifted_at IS NULL', { projectId });
    return (lock ? q.setLock('pessimistic_write') : q).getOne();
  }

  private async byDomain(m: EntityManager, projectId: string): Promise<SecurityView['domains']> {
    const weekAgo = new Date(this.clock.now().getTime() - WINDOW_DAYS * 86_400_000);
    const rows: { domain: string; sends: number; bounces: number; complaints: number }[] = await m.query(
      `WITH lifted AS (SELECT COALESCE(max(lifted_at), 'epoch'::timestamptz) AS at FROM ${tableName(m, SendingSuspension)} WHERE project_id = $1)
       SELECT sender_domain AS domain, count(*)::int AS sends, count(bounced_at)::int AS bounces, count(complained_at)::int AS complaints
         FROM ${tableName(m, MeteredEmail)}, lifted
        WHERE project_id = $1 AND sent_at >= GREATEST($2::timestamptz, lifted.at) AND sender_domain IS NOT NULL
        GROUP BY sender_domain ORDER BY count(*) DESC, sender_domain LIMIT 20`,
      [projectId, weekAgo],
    );
    return rows.map((r) => ({ domain: r.domain, ...rates(r) }));
  }

  private async windows(m: EntityManager, projectId: string): Promise<SecurityView['rates']> {
    const weekAgo = new Date(this.clock.now().getTime() - WINDOW_DAYS * 86_400_000);
    const [row] = (await m.query(
      `WITH lifted AS (SELECT COALESCE(max(lifted_at), 'epoch'::timestamptz) AS at FROM ${tableName(m, SendingSuspension)} WHERE project_id = $1),
            last AS (SELECT bounced_at, complained_at FROM ${tableName(m, MeteredEmail)}, lifted
                      WHERE project_id = $1 AND sent_at >= lifted.at ORDER BY sent_at DESC LIMIT ${WINDOW_SENDS}),
            week AS (SELECT bounced_at, complained_at FROM ${tableName(m, MeteredEmail)}, lifted
                      WHERE project_id = $1 AND sent_at >= GREATEST($2::timestamptz, lifted.at))
       SELECT (SELECT count(*) FROM week)::int AS w_sends, (SELECT count(bounced_at) FROM week)::int AS w_bounces,
              (SELECT count(complained_at) FROM week)::int AS w_complaints,
              (SELECT count(*) FROM last)::int AS l_sends, (SELECT count(bounced_at) FROM last)::int AS l_bounces,
              (SELECT count(complained_at) FROM last)::int AS l_complaints`,
      [projectId, weekAgo],
    )) as {
      w_sends: number;
      w_bounces: number;
      w_complaints: number;
      l_sends: number;
      l_bounces: number;
      l_complaints: number;
    }[];
    return {
      last7Days: rates({ sends: row!.w_sends, bounces: row!.w_bounces, complaints: row!.w_complaints }),
      last1000Sends: rates({ sends: row!.l_sends, bounces: row!.l_bounces, complaints: row!.l_complaints }),
    };
  }
}

const pct = (r: number) => `${(r * 100).toFixed(2)}%`;
