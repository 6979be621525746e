import { SERVICES } from '@herald/core';
import { consumerGroupId } from '@herald/messaging';
import { eventually, startKafka, type KafkaBroker } from '@herald/testing';
import pg from 'pg';
import { statsOf } from '../e2e/campaigns-helpers.js';
import { WebhookReceiver } from '../e2e/webhooks-helpers.js';
import { buildWorkflow } from '../e2e/workflows-helpers.js';
import { startCampaign, type RunningCampaign } from './campaign.js';
import { startFaultHerald, type FaultHerald } from './herald.js';
import { LoadDriver } from './load.js';
import { judge } from './oracle.js';
import { connectReplay, type Replay } from './replay.js';
import { recordRow, rowFrom } from './report.js';
import { diffSnapshots, sizeOf, snapshot, type Snapshot } from './snapshot.js';

/**
 * Scenario 4 of issue 44: a full replay. Under the steady load, a small campaign, a workflow on the
 * load's tracked event (an email and a WEBHOOK step) and a webhook endpoint, Herald settles and its
 * state is pictured (test/faults/snapshot.ts). Then every service stops, every consumer group is put
 * back to the start of every topic it reads, FAULTS_REPLAY_SHARE (default 10 %) of every topic's
 * messages are produced again, and the services start. Invariant: once every group has read to the
 * end, the picture is the same row for row, nothing more reached the relay or the receivers (no
 * Message-ID, webhook-id or workflow Idempotency-Key again), no email twice, the campaign's counters
 * the same. The row's recovery is from the restart to every group caught up.
 */
const LOAD_S = Number(process.env.FAULTS_REPLAY_LOAD_S ?? 20);
const SHARE = Number(process.env.FAULTS_REPLAY_SHARE ?? 0.1);
const CAMPAIGN = Number(process.env.FAULTS_REPLAY_CAMPAIGN ?? 100);
const SETTLE_MS = Number(process.env.FAULTS_SETTLE_MS ?? 180_000);
const SCHEMAS = SERVICES.map((s) => s.name);
const GROUPS = SCHEMAS.map((s) => consumerGroupId('herald', s));

/** How many times each value occurs more than once. */
const repeated = (values: readonly string[]): Record<string, number> => {
  const n = new Map<string, number>();
  for (const v of values) n.set(v, (n.get(v) ?? 0) + 1);
  return Object.fromEntries([...n].filter(([, c]) => c > 1));
};

describe('a full replay of every topic, with duplicates, under a settled Herald', () => {
  let kafka: KafkaBroker;
  let herald: FaultHerald;
  let receiver: WebhookReceiver;
  let replay: Replay;
  let pool: pg.Pool;

  beforeAll(async () => {
    [kafka, receiver] = await Promise.all([startKafka(), new WebhookReceiver().start()]);
    herald = await startFaultHerald({
      brokers: kafka.brokers,
      env: {
        // the loopback receiver: webhook endpoints at http://localhost, the workflow's WEBHOOK step at 127.0.0.1
        WEBHOOKS_ALLOW_HTTP: 'true',
        WEBHOOKS_ALLOW: 'localhost',
        WORKFLOW_WEBHOOK_ALLOW: '127.0.0.1/32',
        WORKFLOW_WEBHOOK_SECRET: 'wfsec_faults_0123456789',
      },
    });
    replay = await connectReplay(kafka.brokers);
    pool = new pg.Pool({ connectionString: herald.topology.db.url, max: 2 });
  }, 600_000);
  afterAll(async () => {
    await pool?.end();
    await replay?.stop();
    await herald?.stop();
    await Promise.all([kafka?.stop(), receiver?.stop()]);
  }, 120_000);

  const count = async (sql: string): Promise<number> => (await pool.query<{ n: number }>(sql)).rows[0]!.n;
  /** Every outbox published and every group at the end of what it reads, twice in a row (nothing left moving). */
  const quiet = async (what: string): Promise<void> => {
    let before = -1;
    await eventually(
      async () => {
        let unpublished = 0;
        for (const s of SCHEMAS)
          unpublished += await count(`SELECT count(*)::int AS n FROM ${s}.outbox WHERE published_at IS NULL`);
        const lag = await replay.lag(GROUPS);
        const still = unpublished + lag === 0 && before === 0;
        before = unpublished + lag;
        return still;
      },
      { timeoutMs: SETTLE_MS, intervalMs: 500, message: what },
    );
  };

  it(`leaves the state as it was, sends nothing twice and counts nothing twice after every topic is read again with ${SHARE * 100} % duplicates`, async () => {
    const { api } = herald;
    const port = new URL(receiver.url('/')).port;
    const endpoint = await api.post('/webhooks/endpoints', {
      url: receiver.url('/hooks'),
      eventTypes: ['contact.created', 'email.sent'],
    });
    expect({ status: endpoint.status, body: endpoint.body }).toMatchObject({ status: 201 });
    const template = await api.post<{ id: string }>('/templates', {
      name: 'Replay',
      subject: 'Replay {{email}}',
      body: '<p>Replay</p>',
      from: herald.from,
      type: 'transactional',
    });
    expect({ status: template.status, body: template.body }).toMatchObject({ status: 201 });
    await buildWorkflow(api, {
      eventName: 'fault-load',
      steps: [
        ['SEND_EMAIL', { templateId: template.body.id }],
        ['WEBHOOK', { url: `http://127.0.0.1:${port}/wf`, method: 'POST' }],
      ],
    });

    const load = new LoadDriver({ url: herald.topology.url, key: api.key, from: herald.from, tag: 'replay' });
    load.start();
    const campaign: RunningCampaign | undefined = CAMPAIGN > 0 ? await startCampaign(herald, CAMPAIGN) : undefined;
    await load.answeredSince(0, LOAD_S * load.rate);
    await load.stop();
    const statsBefore = campaign ? await campaign.finished() : undefined;
    await herald.settle(load.ledger);
    const tracks = load.ledger.filter((e) => e.kind === 'track' && e.status === 200).length;
    await eventually(
      async () =>
        (await count(
          `SELECT count(*)::int AS n FROM workflows.workflow_executions WHERE status NOT IN ('RUNNING', 'WAITING')`,
        )) >= tracks &&
        (await count(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status = 'pending'`)) === 0 &&
        (await count(
          `SELECT count(*)::int AS n FROM sending.emails WHERE status NOT IN ('sent','delivered','bounced','failed','suppressed','skipped')`,
        )) === 0,
      { timeoutMs: SETTLE_MS, intervalMs: 500, message: 'workflows finished, webhooks delivered, emails final' },
    );
    await quiet('Herald quiet before the replay');
    const before: Snapshot = await snapshot(pool);
    const receivedBefore = herald.smtp.messages.length;
    const hooksBefore = receiver.received.length;

    // the replay: every service stopped, every group back to the start, duplicates, every service started
    const procs = [...herald.topology.processes.values()];
    await Promise.all(procs.map((p) => p.stop()));
    const groups = await replay.groups(GROUPS);
    let reset = 0;
    for (const g of groups) reset += await replay.resetToEarliest(g);
    const lagAtStart = await replay.lag(GROUPS);
    const injected = await replay.injectDuplicates(SHARE);
    const restartedAt = Date.now();
    await Promise.all(procs.filter((p) => p.app !== 'gateway').map((p) => p.start({ timeoutMs: 120_000 })));
    await herald.topology.processes.get('gateway')!.start({ timeoutMs: 120_000 });
    let drained = true;
    await quiet('every group read to the end after the replay').catch(() => (drained = false));
    const drainMs = Date.now() - restartedAt;
    const after = await snapshot(pool);
    const statsAfter = campaign ? await statsOf(campaign.api, campaign.id) : undefined;

    const diffs = diffSnapshots(before, after);
    // what reached the relay and the receivers after the stop is the replay's: it must be nothing
    const resent = {
      mail: herald.smtp.messages.slice(receivedBefore).map((m) => m.messageId ?? '?'),
      webhooks: receiver.received.slice(hooksBefore).map((r) => `${r.path} ${String(r.headers['webhook-id'])}`),
    };
    // under the load, before the replay: an id twice is at-least-once delivery (a lease lost), noted, not the replay's
    const hookTwice = Object.keys(repeated(receiver.at('/hooks').map((r) => String(r.headers['webhook-id']))));
    const callTwice = Object.keys(repeated(receiver.at('/wf').map((r) => String(r.headers['idempotency-key']))));
    const entries = [...load.ledger, ...(campaign ? (await campaign.ledger()).entries : [])];
    const v = judge(entries, await herald.finalState());
    const duplicates = Object.values(injected).reduce((a, b) => a + b, 0);
    const row = rowFrom(
      `full replay + ${SHARE * 100} % duplicates`,
      v,
      { recoveryMs: drained ? drainMs : null },
      {
        duplicated: resent.mail.length + resent.webhooks.length,
        note: [
          ...diffs.map((d) => `${d.table}: ${d.gone.length} rows changed or gone, ${d.added.length} added`),
          ...(resent.mail.length ? [`${resent.mail.length} emails sent again by the replay`] : []),
          ...(resent.webhooks.length ? [`${resent.webhooks.length} webhooks called again by the replay`] : []),
          ...(statsAfter !== undefined && JSON.stringify(statsAfter) !== JSON.stringify(statsBefore)
            ? ['campaign stats changed']
            : []),
        ],
      },
    );
    recordRow({
      ...row,
      passed: row.passed && diffs.length === 0 && JSON.stringify(statsAfter) === JSON.stringify(statsBefore),
    });
    console.log(
      `full replay: ${groups.length} groups, ${reset} partitions reset, ${lagAtStart} messages read again, ` +
        `${duplicates} duplicates injected, ${sizeOf(before)} rows compared, drained in ${drainMs} ms; ` +
        `under the load before it, ids received twice: ${hookTwice.length} webhooks, ${callTwice.length} workflow calls`,
    );
    for (const d of diffs.slice(0, 5))
      console.log(
        `${d.table}\n  gone: ${d.gone.slice(0, 3).join('\n        ')}\n  added: ${d.added.slice(0, 3).join('\n         ')}`,
      );
    expect(drained).toBe(true);
    expect(diffs.map((d) => d.table)).toEqual([]);
    expect({ lost: v.lost, stuck: v.stuck, duplicated: v.duplicated }).toEqual({ lost: [], stuck: [], duplicated: [] });
    expect(resent).toEqual({ mail: [], webhooks: [] });
    expect(statsAfter).toEqual(statsBefore);
  }, 3_600_000);
});
