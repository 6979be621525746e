import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SenderDomain } from './sender-domain.entity.js';

/** A domain's state as one `domain.verified` / `domain.unverified` event gives it. */
export interface SenderDomainState {
  domainId: string;
  projectId: string;
  domain: string;
  verified: boolean;
  dkimSelector: string | null;
  dkimPrivateKeySealed: string | null;
  /** The event's `occurredAt`. */
  eventAt: string;
}

/** The copy of the project's sender domains (`sender_domains`) as the domains service's events write it. */
@Injectable()
export class SenderDomainStore {
  /**
   * Writes the domain's state unless the copy holds a newer event's (a redelivered older event never
   * undoes a newer state); a DKIM selector or key the event does not give stays.
   */
  async apply(m: EntityManager, s: SenderDomainState): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, SenderDomain)} (domain_id, project_id, domain, verified, dkim_selector, dkim_private_key_sealed, event_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT (domain_id) DO UPDATE SET verified = EXCLUDED.verified,
         dkim_selector = COALESCE(EXCLUDED.dkim_selector, sender_domains.dkim_selector),
         dkim_private_key_sealed = COALESCE(EXCLUDED.dkim_private_key_sealed, sender_domains.dkim_private_key_sealed),
         event_at = EXCLUDED.event_at, updated_at = now()
       WHERE sender_domains.event_at <= EXCLUDED.event_at`,
      [s.domainId, s.projectId, s.domain, s.verified, s.dkimSelector, s.dkimPrivateKeySealed, s.eventAt],
    );
  }
}
