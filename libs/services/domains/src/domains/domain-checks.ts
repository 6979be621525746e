import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DOMAINS } from '../consumer.js';
import { DOMAINS_SETTINGS, type DomainsSettings } from '../domains.settings.js';
import { Domain, type DomainStatus } from './domain.entity.js';
import { DomainVerifier } from './domain-verifier.js';
import { DomainsStore } from './domains.store.js';

export const CHECK_QUEUE = 'domains.check';
/** Enough retries to ride out a long database outage (backoff tops out at a minute). */
const MAX_ATTEMPTS = 100;
const log = createLogger('domains.checks');

interface CheckPayload {
  domainId: string;
  seq: number;
}

/** Job id of a chain link: one per (domain, position), so a link can never be enqueued twice. */
export const checkJobId = (domainId: string, seq: number): string => `dchk_${domainId}_${seq}`;

/**
 * The background verification of every domain, as a durable chain of jobs per domain (libs/jobs):
 * each check runs, applies its outcome, and enqueues the next one — pending domains every
 * DOMAIN_CHECK_INTERVAL_MS, verified ones every DOMAIN_RECHECK_VERIFIED_MS — in one transaction.
 *
 * A chain never forks: a link carries the domain's `check_seq`, and only the link whose number
 * matches may act, advancing the number as it enqueues its successor. A link run twice (its worker
 * died after committing), a duplicate from another replica's repair, or a link of a removed domain
 * finds the number moved on and does nothing. Chains survive restarts (the jobs are rows); at start
 * a replica restarts any chain that has no queued or running link (its last link failed for good).
 */
@Injectable()
export class DomainChecks implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @InjectDataSource(DOMAINS) private readonly db: DataSource,
    @InjectJobQueue(DOMAINS) private readonly jobs: JobQueue,
    private readonly verifier: DomainVerifier,
    @Inject(DOMAINS_SETTINGS) private readonly settings: DomainsSettings,
    private readonly store: DomainsStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register(CHECK_QUEUE, (ctx) => this.run(ctx));
  }

  async onApplicationBootstrap(): Promise<void> {
    const restarted = await this.restartBrokenChains();
    if (restarted > 0) log.warn('restarted domain check chains', { count: restarted });
  }

  /** Starts a new domain's chain in the transaction that creates it. */
  start(m: EntityManager, domainId: string): Promise<string> {
    return this.enqueue(m, domainId, 0, this.nextRun('pending'));
  }

  /** Drops a domain's queued links (in the transaction that removes it); a running one finds it gone. */
  async cancel(m: EntityManager, domainIds: string[]): Promise<void> {
    await this.jobs.cancel(m, CHECK_QUEUE, 'domainId', domainIds);
  }

  /** Runs one link: look up the records (outside a transaction), then apply, advance and enqueue the next. */
  async run({ job }: Pick<JobContext, 'job'>): Promise<void> {
    const { domainId, seq } = job.payload as unknown as CheckPayload;
    const domain = await this.db.getRepository(Domain).findOneBy({ id: domainId });
    if (!domain || domain.checkSeq !== seq) return;
    const outcome = await this.verifier.lookup(domain);
    await this.db.transaction(async (m) => {
      const locked = await m.findOne(Domain, { where: { id: domainId }, lock: { mode: 'pessimistic_write' } });
      if (!locked || locked.checkSeq !== seq) return;
      const updated = await this.verifier.apply(m, locked, outcome, { checkSeq: seq + 1 });
      await this.enqueue(m, domainId, seq + 1, this.nextRun(updated.status));
      // the link before this one is done: keep the jobs table to about two rows per domain
      await this.jobs.forget(m, [checkJobId(domainId, seq - 1)]);
    });
  }

  /** Chains with no queued or running link get a new one, due now. Returns how many. */
  async restartBrokenChains(): Promise<number> {
    const live = await this.jobs.liveValues(CHECK_QUEUE, 'domainId');
    const rows = (await this.db.getRepository(Domain).find({ select: { id: true } })).filter((d) => !live.has(d.id));
    let restarted = 0;
    for (const { id } of rows) {
      try {
        await this.db.transaction(async (m) => {
          // advancing the number retires whatever link may still exist for the old one
          const seq = await this.store.advanceCheckSeq(m, id);
          if (seq === undefined) return;
          await this.enqueue(m, id, seq, new Date());
          restarted++;
        });
      } catch (err) {
        log.error('could not restart a domain check chain', { domainId: id, err: String(err) });
      }
    }
    return restarted;
  }

  private nextRun(status: DomainStatus): Date {
    return new Date(
      Date.now() +
        (status === 'verified' ? this.settings.DOMAIN_RECHECK_VERIFIED_MS : this.settings.DOMAIN_CHECK_INTERVAL_MS),
    );
  }

  private enqueue(m: EntityManager, domainId: string, seq: number, runAt: Date): Promise<string> {
    const payload: CheckPayload = { domainId, seq };
    return this.jobs.enqueue(
      m,
      CHECK_QUEUE,
      { ...payload },
      { id: checkJobId(domainId, seq), runAt, maxAttempts: MAX_ATTEMPTS },
    );
  }
}
