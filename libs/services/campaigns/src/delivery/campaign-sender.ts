import { createLogger, DomainError } from '@herald/core';
import { intakeItemOf } from '@herald/internal-contracts';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { Campaign } from '../campaigns/campaign.entity.js';
import { publishCampaignReferences, publishLifecycle } from '../campaigns/campaign-events.js';
import { CAMPAIGNS_SETTINGS, type CampaignsSettings } from '../campaigns.settings.js';
import { SegmentsClient, type Audience } from '../clients/segments-client.js';
import { SendingClient, type IntakeItem } from '../clients/sending-client.js';
import { CAMPAIGNS } from '../consumer.js';
import { outcomeOf, stopReasonOf, type StopReason } from '../ledger/ledger-rules.js';
import { LedgerRepository, type PendingRow } from '../ledger/ledger.repository.js';

const log = createLogger('campaigns.sender');

/** The intake key of a campaign's email to a contact: a second hand-off (after a crash) is a duplicate. */
export const deliveryKey = (campaignId: string, contactId: string): string => `campaign:${campaignId}:${contactId}`;

export const audienceOf = (c: Campaign): Audience => ({
  audienceType: c.audienceType,
  ...(c.segmentId ? { segmentId: c.segmentId } : {}),
  ...(c.audienceFilter ? { filter: c.audienceFilter } : {}),
});

/** How a slice of the run of one send (one `send_seq`) ended; `more`: its time slice is over, continue in a new job. */
export type RunEnd = 'sent' | 'stale' | 'segment_gone' | 'more';

/**
 * One campaign's send, as a resumable loop over state kept in the database (docs/campaigns.md,
 * "Sending"): (1) the audience, page by page from segments, into the ledger (the cursor advances in
 * the page's transaction); (2) the pending rows, batch by batch, to sending's intake with the key
 * `campaign:<id>:<contactId>` (a batch handed over twice is answered `duplicate`: nothing is sent
 * twice), never more than CAMPAIGN_IN_FLIGHT not yet sent; (3) SENT once every row is final. Killed at
 * any point, the next run (the job's lease expires) continues where the database says. Each step
 * first checks that the run's `send_seq` is still the campaign's: a cancel stops it at the next step.
 */
@Injectable()
export class CampaignSender {
  constructor(
    @InjectDataSource(CAMPAIGNS) private readonly db: DataSource,
    @InjectOutbox(CAMPAIGNS) private readonly outbox: Outbox,
    @Inject(CAMPAIGNS_SETTINGS) private readonly settings: CampaignsSettings,
    private readonly segments: SegmentsClient,
    private readonly sending: SendingClient,
  ) {}

  /** Works on the send until it ends or `sliceMs` has passed (`more`: the caller continues in a new job). */
  async run(campaignId: string, seq: number, signal: AbortSignal, sliceMs = Infinity): Promise<RunEnd> {
    const until = Date.now() + sliceMs;
    for (;;) {
      signal.throwIfAborted();
      if (Date.now() >= until) return 'more';
      const c = await this.current(this.db.manager, campaignId, seq);
      if (!c) return 'stale';
      if (!c.resolved) {
        if ((await this.resolvePage(c, seq)) === 'segment_gone') return 'segment_gone';
        continue;
      }
      const inFlight = await LedgerRepository.inFlight(this.db.manager, c.id);
      const room = Math.min(this.settings.CAMPAIGN_BATCH_SIZE, this.settings.CAMPAIGN_IN_FLIGHT - inFlight);
      if (room > 0) {
        const batch = await LedgerRepository.pending(this.db.manager, c.id, room);
        if (batch.length > 0) {
          await this.handOff(c, batch);
          continue;
        }
        if (inFlight === 0 && (await this.finish(c.id, seq))) return 'sent';
      }
      await sleep(250, undefined, { signal }).catch(() => undefined);
    }
  }

  /** The campaign if this run is still its current one (SENDING, same `send_seq`). */
  private async current(m: EntityManager, id: string, seq: number, lock = false): Promise<Campaign | null> {
    const c = await m.findOne(Campaign, {
      where: { id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return c && c.sendSeq === seq && c.status === 'SENDING' ? c : null;
  }

  private async resolvePage(c: Campaign, seq: number): Promise<'ok' | 'segment_gone'> {
    let page;
    try {
      page = await this.segments.page(c.projectId, audienceOf(c), c.resolveCursor, this.settings.CAMPAIGN_BATCH_SIZE);
    } catch (err) {
      // the segment was deleted between scheduling and sending (its usage reached segments late)
      if (err instanceof DomainError && err.kind === 'invalid') return 'segment_gone';
      throw err;
    }
    await this.db.transaction(async (m) => {
      const locked = await this.current(m, c.id, seq, true);
      if (!locked || locked.resolveCursor !== c.resolveCursor) return;
      await LedgerRepository.addPage(m, c.projectId, c.id, page.contacts);
      const last = page.contacts[page.contacts.length - 1]?.id ?? locked.resolveCursor;
      locked.resolveCursor = last;
      locked.resolved = page.next === null;
      await m.save(locked);
      if (locked.resolved) {
        await LedgerRepository.refreshStatistics(m);
        const counts = await LedgerRepository.counts(m, c.id);
        await publishLifecycle(this.outbox, m, 'sending', locked, { recipients: counts.recipients });
      }
    });
    return 'ok';
  }

  /** One batch to sending's intake; its answers applied in one transaction. */
  private async handOff(c: Campaign, batch: PendingRow[]): Promise<void> {
    const items: IntakeItem[] = batch.map((r) => ({
      key: deliveryKey(c.id, r.contactId),
      to: r.email,
      contact: r.contact,
      from: c.from,
      ...(c.fromName ? { fromName: c.fromName } : {}),
      ...(c.replyTo ? { replyTo: c.replyTo } : {}),
      subject: c.subject,
      body: c.body,
      ...(c.templateId ? { templateId: c.templateId } : {}),
      category: 'marketing',
      origin: 'campaign',
      campaignId: c.id,
      priority: 'bulk',
    }));
    let results;
    try {
      results = await this.sending.submit(c.projectId, items);
    } catch (err) {
      const stop = err instanceof DomainError ? stopReasonOf(err.code) : null;
      if (stop) {
        await this.stopSending(c, stop, err as DomainError);
        return;
      }
      if (!(err instanceof DomainError) || err.kind !== 'invalid') throw err;
      await this.failRefused(c, batch, err);
      return;
    }
    await this.db.transaction((m) =>
      LedgerRepository.applyOutcomes(
        m,
        c.id,
        results.map((r, i) => ({ contactId: batch[i]!.contactId, ...outcomeOf(r) })),
      ),
    );
  }

  /**
   * The intake refused the batch because the project reached its campaign cap (`billing_limit`) or
   * its sending is suspended (`sending_suspended`; docs/billing.md): nothing of the batch was written,
   * and no later batch would be taken. Every pending row ends `skipped` with that reason — nothing is
   * dropped silently — and the campaign ends (SENT) once its queued rows have their outcome, with
   * `stoppedReason` set to it; the stats count the rows under `billingLimit` / `sendingSuspended`.
   */
  private async stopSending(c: Campaign, reason: StopReason, err: DomainError): Promise<void> {
    const skipped = await this.db.transaction(async (m) => {
      await m.update(Campaign, { id: c.id }, { stoppedReason: reason });
      return LedgerRepository.skipPending(m, c.id, reason);
    });
    log.warn('campaign stopped: the project cannot send more campaign email', {
      campaignId: c.id,
      reason,
      code: err.code,
      skipped,
      err: err.message,
    });
  }

  /**
   * The intake refused the batch (nothing of it was written): the items it names end `failed` with
   * its message (a render error of one contact); when it names none, the whole batch (the campaign's
   * content is refused: a template gone, a domain no longer verified).
   */
  private async failRefused(c: Campaign, batch: PendingRow[], err: DomainError): Promise<void> {
    const named = new Map<number, string>();
    for (const p of err.details.errors ?? []) {
      const at = intakeItemOf(p);
      if (at) named.set(at.index, `${at.field || 'item'}: ${p.message}`);
    }
    const failed = named.size > 0 ? [...named.keys()].filter((i) => batch[i]) : batch.map((_, i) => i);
    log.warn('the intake refused campaign emails', { campaignId: c.id, count: failed.length, err: err.message });
    await this.db.transaction(async (m) => {
      for (const i of failed)
        await LedgerRepository.finalise(
          m,
          c.id,
          { contactId: batch[i]!.contactId, email: batch[i]!.email },
          { status: 'failed', error: named.get(i) ?? err.message, at: new Date() },
        );
    });
  }

  /** SENT, once every row is final (checked again under the campaign's lock). */
  private async finish(id: string, seq: number): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const c = await this.current(m, id, seq, true);
      if (!c || !c.resolved || (await LedgerRepository.open(m, id))) return false;
      const counts = await LedgerRepository.counts(m, id);
      c.status = 'SENT';
      c.sentAt = new Date();
      const saved = await m.save(c);
      await publishLifecycle(this.outbox, m, 'sent', saved, {
        recipients: counts.recipients,
        sent: counts.sent,
        skipped: counts.skipped,
        failed: counts.failed,
      });
      await publishCampaignReferences(this.outbox, m, saved);
      return true;
    });
  }
}
