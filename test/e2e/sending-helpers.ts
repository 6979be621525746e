import pg from 'pg';
import type { TestDnsServer } from '@herald/testing';
import { eventually } from '@herald/testing';
import { newProject, type ProjectApi, type TestProjectApi } from './contacts-helpers.js';

export interface DomainRecordBody {
  type: 'TXT';
  name: string;
  value: string;
  purpose: string;
  required: boolean;
  status?: string;
}

export interface DomainBody {
  id: string;
  domain: string;
  status: 'pending' | 'verified';
  dkimSelector: string;
  records: DomainRecordBody[];
}

/** Publishes every record of a domain on the loopback DNS server. */
export function publish(dns: TestDnsServer, domain: DomainBody): void {
  for (const r of domain.records) dns.set(r.name, 'TXT', r.value);
}

/**
 * Adds `name` to the project, publishes its records, forces a check, and waits until the sending
 * service's copy (fed by domain.verified) knows the domain: the settled state most tests start from.
 */
export async function verifiedDomain(
  api: ProjectApi,
  dns: TestDnsServer,
  db: SendingDb,
  name: string,
): Promise<DomainBody> {
  const domain = await verifyNow(api, dns, name);
  await eventually(async () => ((await db.senderDomain(domain.id))?.verified ? true : undefined), {
    message: 'sending never learned of the verified domain',
  });
  return domain;
}

/**
 * Adds `name` to the project, publishes its records and forces a check that finds it verified,
 * without waiting for anything else: the state a user is in right after GET /domains/:id/verify.
 */
export async function verifyNow(api: ProjectApi, dns: TestDnsServer, name: string): Promise<DomainBody> {
  const created = await api.post<DomainBody>('/domains', { domain: name });
  if (created.status !== 201)
    throw new Error(`POST /domains answered ${created.status}: ${JSON.stringify(created.body)}`);
  publish(dns, created.body);
  // a lookup the loopback DNS server did not answer in time (`lookup_failed`: a loaded machine) is
  // checked again, as a user would press verify again; any other answer is final
  const checked = await eventually(
    async () => {
      const answer = await api.get<DomainBody>(`/domains/${created.body.id}/verify`);
      return answer.body.records?.some((r) => r.status === 'lookup_failed') ? undefined : answer;
    },
    { timeoutMs: 30_000, message: `the DNS lookups of ${name} kept failing` },
  );
  if (checked.body.status !== 'verified') throw new Error(`domain not verified: ${JSON.stringify(checked.body)}`);
  return checked.body;
}

/**
 * Holds back every write to sending's copy of verified domains (`sending.sender_domains`, written
 * only by its domain.verified / domain.unverified handler) until `release()`: a SHARE lock lets
 * reads through but blocks the handler's INSERT, so whatever the event path does meanwhile, the
 * copy cannot learn of a domain. `copyOf` reads the copy from inside the hold.
 */
export async function holdSenderDomainCopy(databaseUrl: string): Promise<{
  copyOf(domainId: string): Promise<{ verified: boolean } | undefined>;
  release(): Promise<void>;
}> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE sending.sender_domains IN SHARE MODE');
  return {
    copyOf: async (domainId) =>
      (await client.query('SELECT verified FROM sending.sender_domains WHERE domain_id = $1', [domainId])).rows[0],
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** Reads the sending schema directly: what the service stored about emails, suppressions and domains. */
export class SendingDb {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }

  async email(
    id: string,
  ): Promise<{ id: string; status: string; error: string | null; to_email: string; attempts: number } | undefined> {
    return (
      await this.pool.query('SELECT id, status, error, to_email, attempts FROM sending.emails WHERE id = $1', [id])
    ).rows[0];
  }

  async emailsOf(projectId: string): Promise<{ id: string; status: string }[]> {
    return (
      await this.pool.query('SELECT id, status FROM sending.emails WHERE project_id = $1 ORDER BY id', [projectId])
    ).rows;
  }

  /** Emails a restarted worker found handed to the relay but unconfirmed, and counted as sent. */
  async recoveredAsSent(projectId: string): Promise<number> {
    return (
      await this.pool.query(
        `SELECT count(*)::int AS n FROM sending.emails WHERE project_id = $1 AND status = 'sent' AND error LIKE 'Recovered after%'`,
        [projectId],
      )
    ).rows[0].n;
  }

  async suppressed(projectId: string, email: string): Promise<boolean> {
    return (
      (
        await this.pool.query('SELECT 1 FROM sending.suppressions WHERE project_id = $1 AND email = $2', [
          projectId,
          email,
        ])
      ).rowCount === 1
    );
  }

  async senderDomain(domainId: string): Promise<{ verified: boolean } | undefined> {
    return (await this.pool.query('SELECT verified FROM sending.sender_domains WHERE domain_id = $1', [domainId]))
      .rows[0];
  }

  async outboxTypes(projectId: string): Promise<string[]> {
    return (
      await this.pool.query(`SELECT topic AS type FROM sending.outbox WHERE envelope->>'projectId' = $1 ORDER BY id`, [
        projectId,
      ])
    ).rows.map((r) => r.type);
  }

  /** Any read of the database (what a test needs beyond the helpers above). */
  query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    return this.pool.query(sql, params);
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

let senders = 0;

/**
 * A new project of the account whose session `cookie` is given, with a sender domain of its own
 * (`<prefix><n>-<time>.example.test`) verified at once (no wait: a send right after reads it), and
 * `from`, an address on it.
 */
export async function projectWithSender(
  baseUrl: string,
  dns: TestDnsServer,
  cookie: string,
  prefix: string,
): Promise<TestProjectApi & { from: string }> {
  const api = await newProject(baseUrl, cookie);
  const domain = `${prefix}${++senders}-${Date.now().toString(36)}.example.test`;
  await verifyNow(api, dns, domain);
  return Object.assign(api, { from: `hello@${domain}` });
}
