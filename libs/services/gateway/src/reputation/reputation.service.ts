import { ProjectSendingResumed, ProjectSendingSuspended } from '@herald/contracts';
import { newId } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { requireMembership } from '../projects/project-access.js';
import { ProjectMail } from '../projects/project-mail.js';
import { BILLING_CLOCK, type BillingClock } from '../shared/billing-clock.js';
import { ReputationErrors } from './reputation.errors.js';
import { judge, rates, type ReputationThresholds, type WindowRates } from './reputation-rules.js';
import { ReputationStore } from './reputation.store.js';
import type { SendingSuspension } from './sending-suspension.entity.js';

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
    private readonly mail: ProjectMail,
    private readonly store: ReputationStore,
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
    if (await this.store.active(m, projectId)) return;
    const windows = await this.windows(m, projectId);
    const verdict = judge([windows.last7Days, windows.last1000Sends], this.thresholds);
    if (verdict.status !== 'breach') return;
    const now = this.clock.now();
    const id = newId('sus');
    const recorded = await this.store.suspend(m, {
      id,
      projectId,
      reason: verdict.reason,
      bounceRate: verdict.window.bounceRate,
      complaintRate: verdict.window.complaintRate,
      sends: verdict.window.sends,
      suspendedAt: now,
    });
    if (!recorded) return;
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

  async security(userId: string, projectId: string): Promise<SecurityView> {
    await requireMembership(this.db.manager, userId, projectId);
    const m = this.db.manager;
    const windows = await this.windows(m, projectId);
    const verdict = judge([windows.last7Days, windows.last1000Sends], this.thresholds);
    const recent = await this.store.recent(m, projectId, 10);
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
      const active = await this.store.active(m, projectId, true);
      if (!active) throw ReputationErrors.notSuspended();
      const now = this.clock.now();
      await this.store.lift(m, active.id, now, userId);
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

  private async byDomain(m: EntityManager, projectId: string): Promise<SecurityView['domains']> {
    const rows = await this.store.byDomain(m, projectId, this.weekAgo());
    return rows.map((r) => ({ domain: r.domain, ...rates(r) }));
  }

  private async windows(m: EntityManager, projectId: string): Promise<SecurityView['rates']> {
    const counts = await this.store.windows(m, projectId, this.weekAgo(), WINDOW_SENDS);
    return { last7Days: rates(counts.since), last1000Sends: rates(counts.last) };
  }

  private weekAgo(): Date {
    return new Date(this.clock.now().getTime() - WINDOW_DAYS * 86_400_000);
  }
}

const pct = (r: number) => `${(r * 100).toFixed(2)}%`;
