import { createLogger, HERALD_RUNTIME, WakeableSleep, type HeraldRuntime } from '@herald/core';
import { PgNotifications } from '@herald/persistence';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { EmailHistory } from '../emails/email-history.js';
import type { Email } from '../emails/email.entity.js';
import { EMAILS_CHANNEL, LIVE_MAIL_ONLY } from '../send/send.store.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import { SenderDomains } from '../senders/sender-domains.js';
import { BatchDelivery } from './batch-delivery.js';
import type { Lane } from './delivery-lanes.js';
import { deliveryMetrics } from './delivery-metrics.js';
import { DeliveryStore } from './delivery-store.js';
import { LeaseKeeper } from './lease-keeper.js';
import { LeaseRecovery } from './lease-recovery.js';
import { OutcomeRecorder } from './outcome-recorder.js';
import { SmtpRelay } from './smtp-relay.js';

const log = createLogger('sending.delivery');

/** What runs: the relay (none without SMTP_URL), the NOTIFY listener, one claim loop per lane. */
interface Started {
  relay: SmtpRelay | null;
  unlisten: () => Promise<void>;
  /** The normal lane's, then the bulk lane's. */
  lanes: { pause: WakeableSleep; loop: Promise<void> }[];
}

/**
 * Delivers queued emails through the SMTP relay: the claim loops. Claims batches in two lanes
 * (normal mail in its own loop, never behind a campaign's bulk batch; `FOR UPDATE SKIP LOCKED`),
 * holds their leases while in flight (LeaseKeeper), delivers each batch (BatchDelivery: suppressed
 * addresses skipped, DKIM-signed, the hand-off recorded just before each message's final dot) and
 * records its outcomes (OutcomeRecorder: temporary failures retry with exponential backoff,
 * permanent ones bounce and suppress the address). The normal lane also recovers expired leases
 * (LeaseRecovery: a crashed worker's emails go back to the queue, unless their hand-off was
 * recorded, in which case they count as sent and are never sent twice); old `Idempotency-Key`s go
 * with the service's retention (IdempotentRequests). The SQL of all of them is in DeliveryStore.
 * Test-mode emails (docs/test-mode.md) are claimed like the others and never reach the relay: their
 * outcome is simulated. Without a relay (no SMTP_URL) the loops claim only those; live mail stays queued.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly store: DeliveryStore;
  private readonly leases: LeaseKeeper;
  private readonly recovery: LeaseRecovery;
  private readonly recorder: OutcomeRecorder;
  private running = false;
  private started?: Started;

  constructor(
    @InjectDataSource(SENDING) db: DataSource,
    @Inject(SENDING_SETTINGS) private readonly settings: SendingSettings,
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
    history: EmailHistory,
    private readonly senders: SenderDomains,
  ) {
    this.store = new DeliveryStore(db);
    this.leases = new LeaseKeeper(this.store, settings.DELIVERY_LEASE_MS);
    this.recovery = new LeaseRecovery(this.store, history, settings.DELIVERY_LEASE_MS);
    this.recorder = new OutcomeRecorder(this.store, history, settings.DELIVERY_RETRY_BASE_MS);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.settings.SMTP_URL)
      log.warn(
        'SMTP_URL is not set: emails are accepted and stay queued until a relay is configured (test-mode emails are still simulated)',
      );
    const relay = this.settings.SMTP_URL
      ? new SmtpRelay(this.settings.SMTP_URL, {
          poolSize: this.settings.SMTP_POOL_SIZE,
          maxMessages: this.settings.SMTP_MAX_MESSAGES,
          composeThreads: this.settings.DELIVERY_COMPOSE_THREADS,
        })
      : null;
    // without a relay only test-mode emails are claimed: a notification of live mail only has none
    const unlisten = await PgNotifications.for(this.runtime.databaseUrl).listen(EMAILS_CHANNEL, (payload) => {
      if (relay || payload !== LIVE_MAIL_ONLY) this.wake();
    });
    this.running = true;
    this.leases.start();
    const delivery = new BatchDelivery(relay, this.store, this.senders, this.settings.DELIVERY_MAX_ATTEMPTS);
    this.started = {
      relay,
      unlisten,
      lanes: (['normal', 'bulk'] as const).map((lane) => {
        const pause = new WakeableSleep();
        return { pause, loop: this.run(lane, pause, delivery, relay === null) };
      }),
    };
  }

  private wake(): void {
    for (const { pause } of this.started?.lanes ?? []) pause.wake();
  }

  /** Finishes the batch in flight (its outcomes are recorded), then stops. */
  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.wake();
    await Promise.all((this.started?.lanes ?? []).map((l) => l.loop));
    this.leases.stop();
    await this.started?.unlisten();
    await this.started?.relay?.close();
  }

  /**
   * `testModeOnly`: no relay, so only test-mode emails are claimed (simulated); live mail stays queued.
   * A full batch means more is waiting: the next batch is claimed (and composed) while that one is
   * still on the wire, so the SMTP connections do not stand idle between batches while outcomes are
   * recorded and the next claim answers. At most two batches of a lane are in flight; the older one's
   * messages were handed to the compose threads and the pool first, so they go out first.
   */
  private async run(lane: Lane, pause: WakeableSleep, delivery: BatchDelivery, testModeOnly: boolean): Promise<void> {
    const limit = this.settings.DELIVERY_BATCH_SIZE;
    let onTheWire: Promise<boolean> | null = null; // a full batch still being delivered
    while (this.running) {
      try {
        if (lane === 'normal') await this.housekeeping();
        const batch = await this.store.claim(lane, limit, this.settings.DELIVERY_LEASE_MS, testModeOnly);
        if (batch.length === 0) {
          // the one on the wire may yet bring retries or free the lane: claim again once it is done
          if (onTheWire) {
            const ok = await onTheWire;
            onTheWire = null;
            if (ok) continue;
          }
          await pause.sleep(1000);
          continue;
        }
        const delivering = this.deliver(batch, lane, delivery);
        const older = onTheWire;
        onTheWire = null;
        const ok = (await older) ?? true;
        if (batch.length === limit && ok) onTheWire = delivering;
        else if (!(await delivering) || !ok) await pause.sleep(1000);
      } catch (err) {
        if (!this.running) break;
        log.error('delivery loop failed; retrying', { lane, error: (err as Error).message });
        await pause.sleep(1000);
      }
    }
    await onTheWire;
  }

  /** The normal lane's chore between claims: expired leases. */
  private async housekeeping(): Promise<void> {
    await this.recovery.recoverIfDue();
  }

  /** Delivers a claimed batch and records its outcomes; false (logged) when that failed: its leases expire and recovery requeues it. */
  private async deliver(batch: Email[], lane: Lane, delivery: BatchDelivery): Promise<boolean> {
    const ids = batch.map((e) => e.id);
    this.leases.hold(ids);
    const endTimer = deliveryMetrics.batchSeconds.startTimer();
    try {
      await this.recorder.record(await delivery.deliver(batch, lane));
      return true;
    } catch (err) {
      if (this.running) log.error('delivery loop failed; retrying', { lane, error: (err as Error).message });
      return false;
    } finally {
      endTimer();
      this.leases.release(ids);
    }
  }
}
