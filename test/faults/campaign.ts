/**
 * The running campaign of a fault scenario's load (issue 44): a project of its own (its own verified
 * sender domain and contacts, so the steady load's recipients are not in its audience), FAULTS_CAMPAIGN
 * recipients (default 1,000; 0: none), sent to all. Judged as the load is: every recipient targeted
 * has one email row, which ends final; the relay holds one copy of each (or it is in doubt).
 */
import pg from 'pg';
import { eventually } from '@herald/testing';
import { campaignIn, createCampaign, statsOf, type StatsBody } from '../e2e/campaigns-helpers.js';
import { csv, newProject, type TestProjectApi } from '../e2e/contacts-helpers.js';
import { verifyNow } from '../e2e/sending-helpers.js';
import type { FaultHerald } from './herald.js';
import type { LedgerEntry } from './oracle.js';

export const campaignSize = (): number => Number(process.env.FAULTS_CAMPAIGN ?? 1000);

export interface RunningCampaign {
  api: TestProjectApi;
  id: string;
  addresses: string[];
  /** Waits until the campaign is SENT, answering its stats. */
  finished(timeoutMs?: number): Promise<StatsBody>;
  /**
   * One acknowledged ledger entry per email row of the campaign (for the oracle), and the addresses
   * targeted with no email row or more than one.
   */
  ledger(): Promise<{ entries: LedgerEntry[]; unsent: string[]; twice: string[] }>;
}

/**
 * Imports the recipients, waits until segments has them all, sends the campaign and waits for its
 * first deliveries. `url`: the gateway its client talks to (the rolling restart's balancer, since
 * the topology's own gateway instance is stopped by the roll).
 */
export async function startCampaign(
  herald: FaultHerald,
  size = campaignSize(),
  url = herald.topology.url,
): Promise<RunningCampaign> {
  const api = await newProject(url);
  const domain = `campaign-${Date.now().toString(36)}.example.test`;
  await verifyNow(api, herald.dns, domain);
  const addresses = Array.from({ length: size }, (_, i) => `c${i}-${domain}@example.com`);
  const imported = await api.importAndWait(csv(['email'], ...addresses.map((a) => [a])));
  if (imported.status !== 'completed') throw new Error(`campaign import: ${JSON.stringify(imported)}`);
  const pool = new pg.Pool({ connectionString: herald.topology.db.url, max: 1 });
  pool.on('error', () => undefined);
  const count = async (sql: string) => (await pool.query<{ n: number }>(sql, [api.projectId])).rows[0]!.n;
  await eventually(
    async () =>
      (await count('SELECT count(*)::int AS n FROM segments.segment_contacts WHERE project_id = $1')) === size,
    { timeoutMs: 120_000, intervalMs: 250, message: 'segments never saw every recipient' },
  );
  const campaign = await createCampaign(api, {
    name: 'Fault load',
    subject: 'Hello {{email}}',
    body: '<p>Hi {{email}}</p>',
    from: `news@${domain}`,
    audienceType: 'ALL',
  });
  const sent = await api.post(`/campaigns/${campaign.id}/send`);
  if (sent.status !== 200) throw new Error(`POST /campaigns/:id/send answered ${sent.status}`);
  await herald.smtp.waitFor({ where: (m) => m.to[0]!.endsWith(`-${domain}@example.com`), count: 1 }, 120_000);
  return {
    api,
    id: campaign.id,
    addresses,
    async finished(timeoutMs = 600_000) {
      await campaignIn(api, campaign.id, 'SENT', timeoutMs);
      return statsOf(api, campaign.id);
    },
    async ledger() {
      const { rows } = await pool.query<{ id: string; to_email: string; created: Date }>(
        'SELECT id, to_email, created_at AS created FROM sending.emails WHERE project_id = $1',
        [api.projectId],
      );
      const per = new Map<string, number>();
      for (const r of rows) per.set(r.to_email, (per.get(r.to_email) ?? 0) + 1);
      await pool.end();
      return {
        entries: rows.map((r) => ({
          kind: 'send' as const,
          recipient: r.to_email,
          startedAt: r.created.getTime(),
          endedAt: r.created.getTime(),
          status: 200,
          id: r.id,
        })),
        unsent: addresses.filter((a) => !per.has(a)),
        twice: [...per].filter(([, n]) => n > 1).map(([a]) => a),
      };
    },
  };
}
