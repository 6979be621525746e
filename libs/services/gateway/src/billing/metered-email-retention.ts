import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { BILLING_CLOCK, type BillingClock } from '../shared/billing-clock.js';
import { MeteredEmailStore } from './metered-email.store.js';

const log = createLogger('gateway.billing');
const QUEUE = 'metered-email-retention';
/** Long past the reputation windows (7 days) and any relay's late bounce or complaint notice. */
export const METERED_EMAIL_RETENTION_DAYS = 35;
const CHUNK = 10_000;

const dayId = (d: Date) => `${QUEUE}-${d.toISOString().slice(0, 10)}`;
const isDuplicate = (err: unknown) => (err as { code?: string }).code === '23505';

/**
 * Keeps `metered_emails` (one row per email: the counting key and the reputation windows) from
 * growing without end: a daily job, one per day whatever the number of gateway replicas (its id is
 * the date), deletes rows older than 35 days in chunks. Consumption totals live in `billing_usage`
 * and are untouched; a "last 1,000 sends" window of a project that sends little covers 35 days at most.
 */
@Injectable()
export class MeteredEmailRetention implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @InjectJobQueue(GATEWAY) private readonly jobs: JobQueue,
    @Inject(BILLING_CLOCK) private readonly clock: BillingClock,
    private readonly store: MeteredEmailStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register(QUEUE, () => this.run());
  }

  /** After the migrations (standalone applies them at start): today's run, unless a replica scheduled it. */
  async onApplicationBootstrap(): Promise<void> {
    await this.schedule(new Date());
  }

  private async run(): Promise<void> {
    // `sent_at` is on the billing clock (BillingMeter)
    const before = new Date(this.clock.now().getTime() - METERED_EMAIL_RETENTION_DAYS * 86_400_000);
    let deleted = 0;
    for (;;) {
      const n = await this.store.deleteSentBefore(this.db.manager, before, CHUNK);
      deleted += n;
      if (n < CHUNK) break;
    }
    if (deleted) log.info('metered emails past retention deleted', { deleted });
    await this.schedule(new Date(Date.now() + 86_400_000));
  }

  private async schedule(day: Date): Promise<void> {
    const runAt = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 3));
    try {
      await this.db.transaction((m) => this.jobs.enqueue(m, QUEUE, {}, { id: dayId(day), runAt }));
    } catch (err) {
      if (!isDuplicate(err)) throw err;
    }
  }
}
