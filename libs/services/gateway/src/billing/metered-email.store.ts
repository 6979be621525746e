import type { BillingCategory } from '@herald/contracts';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MeteredEmail } from '../shared/metered-email.entity.js';

/** An email as the meter records it: when it was sent (on the billing clock), whose, of which category and sender domain. */
export interface MeteredSend {
  emailId: string;
  projectId: string;
  category: BillingCategory;
  at: Date;
  senderDomain: string | null;
}

/**
 * The metered emails (`metered_emails`), one row per email: the key that makes counting it idempotent,
 * marked by its bounce and complaint (the reputation windows read them: ReputationStore).
 */
@Injectable()
export class MeteredEmailStore {
  /**
   * Records the emails with one multi-row insert (`bounced`: marks them bounced, a known one too);
   * the ids of those recorded for the first time, which are the ones to count.
   */
  async record(m: EntityManager, sends: MeteredSend[], bounced: boolean): Promise<string[]> {
    const table = tableName(m, MeteredEmail);
    const rows: { email_id: string }[] = await m.query(
      `INSERT INTO ${table} (email_id, project_id, category, sent_at, sender_domain, bounced_at)
       SELECT id, project, category, at, domain, CASE WHEN $5::boolean THEN at END
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::timestamptz[], $6::varchar[]) AS x(id, project, category, at, domain)
       ON CONFLICT (email_id) DO UPDATE SET bounced_at = COALESCE(${table}.bounced_at, EXCLUDED.bounced_at),
         sender_domain = COALESCE(${table}.sender_domain, EXCLUDED.sender_domain)
       RETURNING email_id, (xmax = 0) AS inserted`,
      [
        sends.map((e) => e.emailId),
        sends.map((e) => e.projectId),
        sends.map((e) => e.category),
        sends.map((e) => e.at),
        bounced,
        sends.map((e) => e.senderDomain),
      ],
    );
    return (rows as { email_id: string; inserted: boolean }[]).filter((r) => r.inserted).map((r) => r.email_id);
  }

  /** Marks the email complained (once); an email never recorded is recorded with it, sent at the complaint's time. */
  async complaint(m: EntityManager, send: MeteredSend): Promise<void> {
    const table = tableName(m, MeteredEmail);
    await m.query(
      `INSERT INTO ${table} (email_id, project_id, category, sent_at, sender_domain, complained_at) VALUES ($1, $2, $3, $4, $5, $4)
       ON CONFLICT (email_id) DO UPDATE SET complained_at = COALESCE(${table}.complained_at, EXCLUDED.complained_at)`,
      [send.emailId, send.projectId, send.category, send.at, send.senderDomain],
    );
  }

  /** Deletes at most `limit` emails sent before `before`; how many it deleted. */
  async deleteSentBefore(m: EntityManager, before: Date, limit: number): Promise<number> {
    const table = tableName(m, MeteredEmail);
    const [, n] = (await m.query(
      `DELETE FROM ${table} WHERE email_id IN (
           SELECT email_id FROM ${table} WHERE sent_at < $1 LIMIT ${limit})`,
      [before],
    )) as [unknown, number];
    return n;
  }
}
