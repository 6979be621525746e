import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DOMAINS } from '../consumer.js';
import { DOMAINS_SETTINGS, type DomainsSettings } from '../domains.settings.js';
import { DnsRecordChecker } from '../records/dns-record-checker.js';
import { pendingReason, verdictOf, type RecordCheck, type Verdict } from '../records/dns-records.js';
import { domainUnverified, domainVerified, type EventTrace } from './domain-events.js';
import { recordsOf } from './domain-view.js';
import { Domain } from './domain.entity.js';

/** One look at a domain's DNS: per-record results and what they mean for its state. */
export interface CheckOutcome {
  checks: RecordCheck[];
  verdict: Verdict;
  /** Why the domain is (or goes back to) pending, when the verdict is `pending`. */
  reason: string;
  checkedAt: Date;
}

/**
 * The domain state machine: pending → verified when every required record is found, verified →
 * pending when one is missing or wrong; a check whose lookups failed changes nothing. Each move
 * publishes `domain.verified` / `domain.unverified` through the outbox in the transaction that
 * makes it. Used by the verify endpoint and the background checks alike.
 */
@Injectable()
export class DomainVerifier {
  constructor(
    private readonly checker: DnsRecordChecker,
    @InjectOutbox(DOMAINS) private readonly outbox: Outbox,
    @Inject(DOMAINS_SETTINGS) private readonly settings: DomainsSettings,
  ) {}

  /** Looks the records up now. Call outside any transaction: DNS may take seconds. */
  async lookup(domain: Domain): Promise<CheckOutcome> {
    const expected = recordsOf(domain, this.settings.SPF_RECORD);
    const checks = await this.checker.check(expected);
    return {
      checks,
      verdict: verdictOf(expected, checks),
      reason: pendingReason(expected, checks),
      checkedAt: new Date(),
    };
  }

  /**
   * Records the outcome on the domain (a row the caller locked in `m`'s transaction), moves its
   * state and publishes the move; `extra` columns are written in the same update.
   */
  async apply(
    m: EntityManager,
    domain: Domain,
    outcome: CheckOutcome,
    extra: Partial<Domain> = {},
    trace: EventTrace = {},
  ): Promise<Domain> {
    const patch: Partial<Domain> = { checks: outcome.checks, lastCheckedAt: outcome.checkedAt, ...extra };
    if (domain.status === 'pending' && outcome.verdict === 'verified') {
      Object.assign(patch, { status: 'verified', verifiedAt: outcome.checkedAt });
    } else if (domain.status === 'verified' && outcome.verdict === 'pending') {
      Object.assign(patch, { status: 'pending', verifiedAt: null });
    }
    await m.update(Domain, { id: domain.id }, patch);
    const updated = Object.assign(new Domain(), domain, patch);
    if (patch.status === 'verified') await this.outbox.add(m, domainVerified(updated, trace));
    if (patch.status === 'pending') await this.outbox.add(m, domainUnverified(updated, outcome.reason, trace));
    return updated;
  }
}
