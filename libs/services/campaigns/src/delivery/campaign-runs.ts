import { randomUUID } from 'node:crypto';
import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Campaign } from '../campaigns/campaign.entity.js';
import { publishCampaignReferences, publishLifecycle } from '../campaigns/campaign-events.js';
import { assertCancellable, parseScheduledFor, sendTarget } from '../campaigns/campaign-state.js';
import { campaignView, type CampaignView } from '../campaigns/campaign-view.js';
import { CampaignsService } from '../campaigns/campaigns.service.js';
import { CampaignsStore } from '../campaigns/campaigns.store.js';
import { SegmentsClient } from '../clients/segments-client.js';
import { SendingClient } from '../clients/sending-client.js';
import { CAMPAIGNS } from '../consumer.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { audienceOf, CampaignSender } from './campaign-sender.js';
import { testSendAnswer, testSendItem, type TestSendAnswer } from './tester-send.js';

export const RUN_QUEUE = 'campaigns.run';
/**
 * A run works this long, then continues in a new job: the workers' slots free up often, so a
 * scheduled campaign's job (due earlier, claimed first) never waits behind long sends.
 */
const SLICE_MS = 2_000;
/** Enough retries to ride out a long outage of segments or sending (backoff tops out at a minute). */
const MAX_ATTEMPTS = 100;
const log = createLogger('campaigns.runs');

interface RunPayload {
  campaignId: string;
  seq: number;
}

/**
 * Send, schedule, cancel and test (docs/campaigns.md, "Sending" and "Scheduling"). A send is a
 * durable job (libs/jobs) carrying the campaign's `send_seq`: due at `scheduledFor` for a scheduled
 * campaign (it fires by the database clock, and moves the campaign to SENDING only if `scheduled_at`
 * has passed, so never early), at once otherwise. Send, reschedule and cancel move `send_seq` on
 * under the campaign's row lock, so a job of an earlier run finds its number gone and does nothing.
 */
@Injectable()
export class CampaignRuns implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @InjectDataSource(CAMPAIGNS) private readonly db: DataSource,
    @InjectOutbox(CAMPAIGNS) private readonly outbox: Outbox,
    @InjectJobQueue(CAMPAIGNS) private readonly jobs: JobQueue,
    private readonly campaigns: CampaignsService,
    private readonly segments: SegmentsClient,
    private readonly sending: SendingClient,
    private readonly sender: CampaignSender,
    private readonly store: CampaignsStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register(RUN_QUEUE, (ctx) => this.run(ctx));
  }

  async onApplicationBootstrap(): Promise<void> {
    const restarted = await this.restartOrphans();
    if (restarted > 0) log.warn('restarted campaign runs', { count: restarted });
  }

  /** `POST /campaigns/:id/send {scheduledFor?}`. */
  async send(projectId: string, id: string, scheduledForRaw: unknown, requestId?: string): Promise<CampaignView> {
    const now = new Date();
    const scheduledFor = scheduledForRaw === undefined ? undefined : parseScheduledFor(scheduledForRaw, now);
    const before = await this.campaigns.find(this.db.manager, projectId, id);
    sendTarget(before.status, scheduledFor);
    const estimate = scheduledFor
      ? (await this.segments.check(projectId, audienceOf(before), requestId)).estimatedRecipients
      : undefined;
    const saved = await this.db.transaction(async (m) => {
      const c = await this.campaigns.find(m, projectId, id, true);
      const target = sendTarget(c.status, scheduledFor);
      await this.jobs.cancel(m, RUN_QUEUE, 'campaignId', [c.id]);
      c.sendSeq += 1;
      c.status = target;
      c.scheduledAt = scheduledFor ?? null;
      if (target === 'SENDING') c.startedAt = new Date();
      const s = await m.save(c);
      await this.enqueue(m, s, scheduledFor ?? new Date());
      if (target === 'SCHEDULED')
        await publishLifecycle(this.outbox, m, 'scheduled', s, { estimatedRecipients: estimate ?? 0 }, requestId);
      await publishCampaignReferences(this.outbox, m, s, false, requestId);
      return s;
    });
    return campaignView(saved);
  }

  /** `POST /campaigns/:id/cancel`: pending rows end `skipped: cancelled`; what was handed over goes on. */
  async cancel(projectId: string, id: string, requestId?: string): Promise<CampaignView> {
    const saved = await this.db.transaction(async (m) => {
      const c = await this.campaigns.find(m, projectId, id, true);
      assertCancellable(c.status);
      await this.jobs.cancel(m, RUN_QUEUE, 'campaignId', [c.id]);
      await LedgerRepository.cancelPending(m, c.id);
      c.sendSeq += 1;
      c.status = 'CANCELLED';
      c.cancelledAt = new Date();
      const s = await m.save(c);
      const counts = await LedgerRepository.counts(m, c.id);
      await publishLifecycle(
        this.outbox,
        m,
        'cancelled',
        s,
        { recipients: counts.recipients, sent: counts.sent, skipped: counts.skipped, failed: counts.failed },
        requestId,
      );
      await publishCampaignReferences(this.outbox, m, s, false, requestId);
      return s;
    });
    return campaignView(saved);
  }

  /**
   * `POST /campaigns/:id/test {email}`: one email to that address whatever its contact's state
   * (none, unsubscribed, subscribed), marked as a test; no ledger row, no status or stats change,
   * no contact created or changed; a suppressed address is a 422 (tester-send.ts).
   */
  async test(projectId: string, id: string, email: string, requestId?: string): Promise<TestSendAnswer> {
    const c = await this.campaigns.find(this.db.manager, projectId, id);
    const [r] = await this.sending.submit(
      projectId,
      [testSendItem(c, email, `campaign-test:${c.id}:${randomUUID()}`)],
      requestId,
    );
    return testSendAnswer(email, r!);
  }

  /** One run: a scheduled campaign moves to SENDING when its time has come, then the sender works. */
  async run({ job, signal }: Pick<JobContext, 'job' | 'signal'>): Promise<void> {
    const { campaignId, seq } = job.payload as unknown as RunPayload;
    const c = await this.db.getRepository(Campaign).findOneBy({ id: campaignId });
    if (!c || c.sendSeq !== seq) return;
    if (c.status === 'SCHEDULED' && !(await this.fire(c.id, seq))) {
      const again = await this.db.getRepository(Campaign).findOneBy({ id: campaignId });
      if (again?.status === 'SCHEDULED' && again.sendSeq === seq)
        throw new Error('the scheduled time has not come yet (clock skew): retrying');
      return;
    }
    const end = await this.sender.run(campaignId, seq, signal, SLICE_MS);
    if (end === 'segment_gone') await this.endWithoutSegment(campaignId, seq);
    if (end === 'more')
      await this.db.transaction(async (m) => {
        const current = await m.findOne(Campaign, { where: { id: campaignId } });
        if (current?.sendSeq === seq && current.status === 'SENDING')
          await this.enqueue(m, current, new Date(), `crun_${campaignId}_${seq}_${randomUUID().slice(0, 8)}`);
      });
  }

  /** SCHEDULED → SENDING, only for this run and only once `scheduled_at` has passed by the database's clock. */
  private async fire(id: string, seq: number): Promise<boolean> {
    return this.db.transaction((m) => this.store.fireScheduled(m, id, seq));
  }

  /**
   * The audience is no longer valid at send time (its segment, or a segment its filter names, was
   * deleted before the reference reached segments): the campaign is cancelled, its pending rows
   * `skipped: cancelled`.
   */
  private async endWithoutSegment(id: string, seq: number): Promise<void> {
    await this.db.transaction(async (m) => {
      const c = await m.findOne(Campaign, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!c || c.sendSeq !== seq || c.status !== 'SENDING') return;
      log.warn('the audience of a campaign is no longer valid (a segment was deleted): cancelled', { campaignId: id });
      await LedgerRepository.cancelPending(m, id);
      c.sendSeq += 1;
      c.status = 'CANCELLED';
      c.cancelledAt = new Date();
      const s = await m.save(c);
      await publishLifecycle(this.outbox, m, 'cancelled', s);
      await publishCampaignReferences(this.outbox, m, s);
    });
  }

  private enqueue(m: EntityManager, c: Campaign, runAt: Date, id?: string): Promise<string> {
    const payload: RunPayload = { campaignId: c.id, seq: c.sendSeq };
    return this.jobs.enqueue(
      m,
      RUN_QUEUE,
      { ...payload },
      {
        id: id ?? `crun_${c.id}_${c.sendSeq}`,
        runAt,
        maxAttempts: MAX_ATTEMPTS,
      },
    );
  }

  /** SCHEDULED and SENDING campaigns whose run job is gone (it failed for good) get a new one. */
  async restartOrphans(): Promise<number> {
    const live = await this.jobs.liveValues(RUN_QUEUE, 'campaignId');
    const active = await this.db
      .getRepository(Campaign)
      .find({ where: [{ status: 'SCHEDULED' }, { status: 'SENDING' }], select: { id: true } });
    let restarted = 0;
    for (const { id } of active.filter((c) => !live.has(c.id))) {
      await this.db.transaction(async (m) => {
        const c = await m.findOne(Campaign, { where: { id }, lock: { mode: 'pessimistic_write' } });
        if (!c || (c.status !== 'SCHEDULED' && c.status !== 'SENDING')) return;
        await this.enqueue(
          m,
          c,
          c.status === 'SCHEDULED' && c.scheduledAt ? c.scheduledAt : new Date(),
          `crun_${id}_${c.sendSeq}_${randomUUID().slice(0, 8)}`,
        );
        restarted++;
      });
    }
    return restarted;
  }
}
