/**
 * Herald deployed for a fault scenario: every service its own process over Kafka (startTopology's
 * distributed mode, a topology of the scenario's own), a loopback SMTP sink as the relay and a
 * loopback DNS server, a project with a verified sender domain, and what the oracle reads back:
 * PostgreSQL's rows of that project and the Message-IDs the sink received.
 */
import pg from 'pg';
import {
  eventually,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
  type TopologyOptions,
} from '@herald/testing';
import { newProject, type TestProjectApi } from '../e2e/contacts-helpers.js';
import { verifyNow } from '../e2e/sending-helpers.js';
import { FINAL_EMAIL_STATUSES, isAcknowledged, type EmailRow, type FinalState, type LedgerEntry } from './oracle.js';

export interface FaultHerald {
  topology: Topology;
  smtp: SmtpSink;
  dns: TestDnsServer;
  api: TestProjectApi;
  /** A sender address on the project's verified domain. */
  from: string;
  /** PostgreSQL's rows (every project of the scenario's own database) and the sink's Message-IDs. */
  finalState(): Promise<FinalState>;
  /**
   * Waits until every acknowledged send of `ledger` is in a final status and every acknowledged
   * track has reached segments over Kafka (or `timeoutMs` passes: what is left is the oracle's
   * `stuck` or `lost`), answering the milliseconds it took: how long the backlog took to drain.
   */
  settle(ledger: readonly LedgerEntry[], timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

/** Settings of a fault topology: short leases, so that a killed worker's work is taken over within seconds. */
export const FAULT_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_PER_MINUTE: '1000000',
  JOB_LEASE_MS: '2000',
  DELIVERY_LEASE_MS: '2000',
};

/**
 * `options.serviceEnv`: variables of one service (startTopology's), e.g. peers' URLs of the scenario's own.
 * `options.onTopology`: called once the services are ready, before the project is made (e.g. to put
 * them behind balancers of the scenario's own).
 * `options.brokers`: a Kafka cluster of the scenario's own (e.g. test/faults/broker.ts) instead
 * of the one startTopology starts, handed over as KAFKA_BROKERS for the time of the start.
 */
export async function startFaultHerald(
  options: {
    env?: Record<string, string>;
    serviceEnv?: TopologyOptions['serviceEnv'];
    brokers?: string[];
    onTopology?: (topology: Topology) => Promise<void>;
  } = {},
): Promise<FaultHerald> {
  const [smtp, dns] = await Promise.all([startSmtpSink({ replyDelayMs: 5 }), startDnsServer()]);
  const before = process.env.KAFKA_BROKERS;
  if (options.brokers) process.env.KAFKA_BROKERS = options.brokers.join(',');
  const topology = await startTopology({
    mode: 'distributed',
    exclusive: true,
    env: { ...FAULT_ENV, SMTP_URL: smtp.url, DNS_SERVERS: dns.address, ...options.env },
    ...(options.serviceEnv ? { serviceEnv: options.serviceEnv } : {}),
  }).finally(() => {
    if (before === undefined) delete process.env.KAFKA_BROKERS;
    else process.env.KAFKA_BROKERS = before;
  });
  await options.onTopology?.(topology);
  const api = await newProject(topology.url);
  const domain = `faults-${Date.now().toString(36)}.example.test`;
  await verifyNow(api, dns, domain);
  const pool = new pg.Pool({ connectionString: topology.db.url, max: 2 });
  pool.on('error', () => undefined); // an idle client cut by a PostgreSQL restart: the next query connects again
  const emailsOf = async (): Promise<Map<string, EmailRow>> => {
    const { rows } = await pool.query<{ id: string; status: string; message_id: string; error: string | null }>(
      'SELECT id, status, message_id, error FROM sending.emails',
    );
    return new Map(rows.map((r) => [r.id, { id: r.id, status: r.status, messageId: r.message_id, error: r.error }]));
  };
  const projectedEvents = async (): Promise<Set<string>> =>
    new Set(
      (
        await pool.query<{ id: string }>(
          'SELECT event_record_id AS id FROM segments.segment_contact_events WHERE event_record_id IS NOT NULL',
        )
      ).rows.map((r) => r.id),
    );
  return {
    topology,
    smtp,
    dns,
    api,
    from: `load@${domain}`,
    async finalState() {
      const [emails, events, contacts, projected] = await Promise.all([
        emailsOf(),
        pool.query<{ id: string }>('SELECT id FROM contacts.tracked_events'),
        pool.query<{ email: string }>('SELECT email FROM contacts.contacts'),
        projectedEvents(),
      ]);
      return {
        emails,
        events: new Set(events.rows.map((r) => r.id)),
        contacts: new Set(contacts.rows.map((r) => r.email)),
        received: smtp.messages.map((m) => (m.messageId ?? '').replace(/^<|>$/g, '')),
        projected,
      };
    },
    async settle(ledger, timeoutMs = Number(process.env.FAULTS_SETTLE_MS ?? 180_000)) {
      const started = Date.now();
      const acked = (kind: LedgerEntry['kind']) =>
        ledger.filter((e) => e.kind === kind && isAcknowledged(e) && e.id).map((e) => e.id!);
      const [sends, tracks] = [acked('send'), acked('track')];
      await eventually(
        async () => {
          const [emails, projected] = await Promise.all([emailsOf(), projectedEvents()]);
          return (
            sends.every((id) => FINAL_EMAIL_STATUSES.has(emails.get(id)?.status ?? 'missing')) &&
            tracks.every((id) => projected.has(id))
          );
        },
        { timeoutMs, intervalMs: 500, message: 'acknowledged emails final and tracked events projected' },
      ).catch(() => undefined); // what is left is judged stuck (or lost) by the oracle
      return Date.now() - started;
    },
    async stop() {
      await pool.end();
      await topology.stop();
      await Promise.all([smtp.stop(), dns.stop()]);
    },
  };
}
