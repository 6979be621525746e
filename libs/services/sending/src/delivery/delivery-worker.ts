import { EmailBounced, EmailFailed, EmailSent, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import { createLogger, DomainError, HERALD_RUNTIME, WakeableSleep, type HeraldRuntime } from '@herald/core';
import { PgNotifications, tableName } from '@herald/persistence';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SENDING } from '../consumer.js';
import { EmailHistory } from '../emails/email-history.js';
import { Email, emailFromRow } from '../emails/email.entity.js';
import { Suppression } from '../emails/suppression.entity.js';
import { IdempotencyKey } from '../send/idempotency-key.entity.js';
import { EMAILS_CHANNEL } from '../send/send-email.use-case.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import { SenderDomains, type DkimKey } from '../senders/sender-domains.js';
import { LANE_FILTER, type Lane } from './delivery-lanes.js';
import { deliveryMetrics } from './delivery-metrics.js';
import { emailEventPayload } from './email-events.js';
import { SmtpRelay } from './smtp-relay.js';

type EmailRow = Email;

/** What became of one email in a batch, applied together at the end of the batch. */
type Outcome =
  | { email: EmailRow; kind: 'sent'; detail?: string }
  | { email: EmailRow; kind: 'suppressed' | 'failed' | 'retry'; detail: string }
  | { email: EmailRow; kind: 'bounced'; detail: string };

const log = createLogger('sending.delivery');

/**
 * Delivers queued emails through the SMTP relay. Claims batches in two lanes (normal mail in its
 * own loop, never behind a campaign's bulk batch; `FOR UPDATE SKIP LOCKED`, leased and renewed while in flight), skips
 * suppressed addresses, signs with the sender domain's DKIM key, and records the hand-off just
 * before each message's final dot (see SmtpRelay). Temporary failures retry with exponential
 * backoff; permanent ones bounce and suppress the address. An expired lease (a crashed worker)
 * puts an email back in the queue — unless its hand-off was recorded, in which case it counts as
 * sent and is never sent twice.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private relay?: SmtpRelay;
  private running = false;
  private loops: Promise<void>[] = [];
  /** One per claim loop: the normal lane's, then the bulk lane's. */
  private readonly pauses: WakeableSleep[] = [];
  private unlisten?: () => Promise<void>;
  private readonly inFlight = new Set<string>();
  private heartbeat?: NodeJS.Timeout;
  private pendingHandoffs: { id: string; resolve: () => void; reject: (err: Error) => void }[] = [];
  private lastRecovery = 0;
  private lastPurge = 0;

  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    @Inject(SENDING_SETTINGS) private readonly settings: SendingSettings,
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
    private readonly history: EmailHistory,
    private readonly senders: SenderDomains,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.settings.SMTP_URL) {
      log.warn('SMTP_URL is not set: emails are accepted and stay queued until a relay is configured');
      return;
    }
    this.relay = new SmtpRelay(this.settings.SMTP_URL, {
      poolSize: this.settings.SMTP_POOL_SIZE,
      maxMessages: this.settings.SMTP_MAX_MESSAGES,
      composeThreads: this.settings.DELIVERY_COMPOSE_THREADS,
    });
    this.unlisten = await PgNotifications.for(this.runtime.databaseUrl).listen(EMAILS_CHANNEL, () => this.wake());
    this.running = true;
    this.heartbeat = setInterval(
      () => void this.renewLeases(),
      Math.max(500, Math.floor(this.settings.DELIVERY_LEASE_MS / 3)),
    );
    this.heartbeat.unref();
    this.loops = (['normal', 'bulk'] as const).map((lane) => {
      const pause = new WakeableSleep();
      this.pauses.push(pause);
      return this.run(lane, pause);
    });
  }

  private wake(): void {
    for (const pause of this.pauses) pause.wake();
  }

  /** Finishes the batch in flight (its outcomes are recorded), then stops. */
  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.wake();
    await Promise.all(this.loops);
    clearInterval(this.heartbeat);
    await this.unlisten?.();
    await this.relay?.close();
  }

  private async run(lane: Lane, pause: WakeableSleep): Promise<void> {
    while (this.running) {
      try {
        if (lane === 'normal' && Date.now() - this.lastRecovery > Math.min(5000, this.settings.DELIVERY_LEASE_MS / 2)) {
          this.lastRecovery = Date.now();
          await this.recoverExpired();
        }
        if (lane === 'normal' && Date.now() - this.lastPurge > 60_000) {
          this.lastPurge = Date.now();
          // housekeeping of /v1/send: Idempotency-Keys are remembered for 24 hours
          await this.db.query(
            `DELETE FROM ${tableName(this.db, IdempotencyKey)} WHERE created_at < now() - interval '24 hours'`,
          );
        }
        const batch = await this.claim(lane);
        if (batch.length === 0) {
          await pause.sleep(1000);
          continue;
        }
        await this.deliverBatch(batch, lane);
      } catch (err) {
        if (!this.running) break;
        log.error('delivery loop failed; retrying', { lane, error: (err as Error).message });
        await pause.sleep(1000);
      }
    }
  }

  private async claim(lane: Lane): Promise<EmailRow[]> {
    const table = tableName(this.db, Email);
    const [rows] = (await this.db.query(
      `UPDATE ${table} SET status = 'sending', attempts = attempts + 1, lease_until = now() + ($2 || ' milliseconds')::interval, handoff_at = NULL
        WHERE id IN (SELECT id FROM ${table} WHERE status = 'queued' AND ${LANE_FILTER[lane]} AND next_attempt_at <= now()
                     ORDER BY priority, next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [this.settings.DELIVERY_BATCH_SIZE, String(this.settings.DELIVERY_LEASE_MS)],
    )) as [Record<string, unknown>[], number];
    return rows
      .map((r) => this.db.getRepository(Email).create(emailFromRow(r)))
      .sort((a, b) => a.priority - b.priority);
  }

  private async deliverBatch(batch: EmailRow[], lane: Lane): Promise<void> {
    for (const e of batch) this.inFlight.add(e.id);
    const endTimer = deliveryMetrics.batchSeconds.startTimer();
    try {
      const suppressed = await this.suppressedOf(batch);
      // a normal batch (small) is composed and signed first, so that while its messages are on the
      // wire the event loop is free and the step from a recorded hand-off to the final dot is short
      const keys = new Map<string, Promise<DkimKey | null>>(); // one lookup per project and sender domain of the batch
      const keyOf = (email: EmailRow) => {
        const id = `${email.projectId}\u0000${email.fromEmail.slice(email.fromEmail.lastIndexOf('@') + 1)}`;
        if (!keys.has(id)) keys.set(id, this.senders.signingKey(email.projectId, email.fromEmail));
        return keys.get(id)!;
      };
      const prepareOne = (email: EmailRow) =>
        this.prepare(email, suppressed.has(`${email.projectId}\u0000${email.toEmail}`), keyOf);
      const send = (p: Awaited<ReturnType<typeof prepareOne>>) =>
        p.raw ? this.deliverOne(p.email, p.raw) : Promise.resolve(p.outcome);
      let sending: Promise<Outcome>[];
      if (this.relay!.composesOffThread)
        // compose threads leave the event loop free: every message of the batch is composed at
        // once, each handed to the pool as soon as it is signed
        sending = batch.map((email) => prepareOne(email).then(send));
      else if (lane === 'normal') sending = (await Promise.all(batch.map(prepareOne))).map(send);
      else {
        // composing on the event loop, a bulk batch is composed one message at a time, each handed
        // to the pool as soon as it is signed, with a turn of the event loop between messages: a
        // hundred compositions at once would keep the loop busy for the whole batch, and a /v1/send
        // request or a normal-lane hand-off would wait behind all of them
        sending = [];
        for (const email of batch) {
          sending.push(send(await prepareOne(email)));
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      const outcomes = await Promise.all(sending);
      await this.record(outcomes);
      for (const o of outcomes) deliveryMetrics.outcomes.inc({ outcome: o.kind });
    } finally {
      endTimer();
      for (const e of batch) this.inFlight.delete(e.id);
    }
  }

  private async prepare(
    email: EmailRow,
    suppressed: boolean,
    keyOf: (email: EmailRow) => Promise<DkimKey | null>,
  ): Promise<
    { email: EmailRow; raw: Buffer; outcome?: undefined } | { email: EmailRow; raw?: undefined; outcome: Outcome }
  > {
    if (suppressed)
      return { email, outcome: { email, kind: 'suppressed', detail: 'The address is on the suppression list' } };
    let dkim: DkimKey | null;
    try {
      dkim = await keyOf(email);
    } catch (err) {
      // the local copy does not know the domain and the domains service cannot be asked now: later
      if (!(err instanceof DomainError && err.kind === 'unavailable')) throw err;
      const detail = `The sender domain could not be checked: ${err.message}`;
      return email.attempts >= this.settings.DELIVERY_MAX_ATTEMPTS
        ? { email, outcome: { email, kind: 'failed', detail: `Gave up after ${email.attempts} attempts: ${detail}` } }
        : { email, outcome: { email, kind: 'retry', detail } };
    }
    try {
      if (!dkim)
        return {
          email,
          outcome: { email, kind: 'failed', detail: `The sender domain of ${email.fromEmail} is no longer verified` },
        };
      const raw = await this.relay!.compose(
        {
          messageId: email.messageId,
          from: { email: email.fromEmail, name: email.fromName },
          to: { email: email.toEmail, name: email.toName },
          replyTo: email.replyTo,
          subject: email.subject,
          html: email.html,
          text: email.text,
          headers: email.headers,
          attachments: email.attachments,
        },
        dkim,
      );
      return { email, raw };
    } catch (err) {
      return {
        email,
        outcome: { email, kind: 'failed', detail: `The message could not be composed: ${(err as Error).message}` },
      };
    }
  }

  private async deliverOne(email: EmailRow, raw: Buffer): Promise<Outcome> {
    let handedOff = false;
    try {
      const answer = await this.relay!.deliver(
        { from: email.fromEmail, to: email.toEmail },
        raw,
        async () => {
          await this.recordHandoff(email.id);
          handedOff = true;
        },
        email.priority <= 0,
      );
      return { email, kind: 'sent', detail: answer.response };
    } catch (err) {
      const message = (err as Error).message;
      const kind = SmtpRelay.classify(err, handedOff);
      if (kind === 'permanent') return { email, kind: 'bounced', detail: message };
      if (kind === 'in-doubt')
        return {
          email,
          kind: 'sent',
          detail: `The relay's answer was lost after the hand-off; counted as sent, never resent: ${message}`,
        };
      if (email.attempts >= this.settings.DELIVERY_MAX_ATTEMPTS)
        return { email, kind: 'failed', detail: `Gave up after ${email.attempts} attempts: ${message}` };
      return { email, kind: 'retry', detail: message };
    }
  }

  /** Hand-offs of concurrent sends are written together: one UPDATE per event-loop turn. */
  private recordHandoff(id: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pendingHandoffs.push({ id, resolve, reject });
      if (this.pendingHandoffs.length === 1) setImmediate(() => void this.flushHandoffs());
    });
  }

  private async flushHandoffs(): Promise<void> {
    const pending = this.pendingHandoffs;
    this.pendingHandoffs = [];
    try {
      await this.db.query(
        `UPDATE ${tableName(this.db, Email)} SET handoff_at = now() WHERE id = ANY($1::varchar[]) AND status = 'sending'`,
        [pending.map((p) => p.id)],
      );
      for (const p of pending) p.resolve();
    } catch (err) {
      for (const p of pending) p.reject(err as Error);
    }
  }

  private async record(outcomes: Outcome[]): Promise<void> {
    const table = tableName(this.db, Email);
    await this.db.transaction(async (m) => {
      const byKind = (k: Outcome['kind']) => outcomes.filter((o) => o.kind === k);
      const ids = (os: Outcome[]) => os.map((o) => o.email.id);
      const details = (os: Outcome[]) => os.map((o) => o.detail ?? null);
      const sent = byKind('sent');
      if (sent.length > 0) {
        await m.query(
          `UPDATE ${table} AS e SET status = 'sent', sent_at = now(), lease_until = NULL, error = CASE WHEN x.detail LIKE 'The relay''s answer%' THEN x.detail ELSE NULL END
             FROM unnest($1::varchar[], $2::text[]) AS x(id, detail) WHERE e.id = x.id`,
          [ids(sent), details(sent)],
        );
      }
      for (const kind of ['suppressed', 'failed', 'bounced'] as const) {
        const os = byKind(kind);
        if (os.length === 0) continue;
        await m.query(
          `UPDATE ${table} AS e SET status = $3::varchar, lease_until = NULL, error = x.detail, bounced_at = CASE WHEN $3::varchar = 'bounced' THEN now() ELSE e.bounced_at END
             FROM unnest($1::varchar[], $2::text[]) AS x(id, detail) WHERE e.id = x.id`,
          [ids(os), details(os), kind],
        );
      }
      const retry = byKind('retry');
      if (retry.length > 0) {
        const delays = retry.map((o) =>
          Math.min(3_600_000, this.settings.DELIVERY_RETRY_BASE_MS * 2 ** Math.max(0, o.email.attempts - 1)),
        );
        await m.query(
          `UPDATE ${table} AS e SET status = 'queued', lease_until = NULL, handoff_at = NULL, error = x.detail, next_attempt_at = now() + (x.delay || ' milliseconds')::interval
             FROM unnest($1::varchar[], $2::text[], $3::varchar[]) AS x(id, detail, delay) WHERE e.id = x.id`,
          [ids(retry), details(retry), delays.map(String)],
        );
      }
      const bounced = byKind('bounced');
      if (bounced.length > 0)
        await this.suppress(
          m,
          bounced.map((o) => ({ projectId: o.email.projectId, email: o.email.toEmail, detail: o.detail! })),
        );
      const events: EventEnvelope<EmailLifecycleV1>[] = [
        ...sent.map((o) =>
          EmailSent.create({
            projectId: o.email.projectId,
            source: SENDING,
            payload: emailEventPayload(o.email, { messageId: o.email.messageId }),
          }),
        ),
        ...bounced.map((o) =>
          EmailBounced.create({
            projectId: o.email.projectId,
            source: SENDING,
            payload: emailEventPayload(o.email, { bounceType: 'permanent', reason: o.detail }),
          }),
        ),
        ...byKind('failed').map((o) =>
          EmailFailed.create({
            projectId: o.email.projectId,
            source: SENDING,
            payload: emailEventPayload(o.email, { reason: o.detail }),
          }),
        ),
      ];
      await this.history.publish(m, events);
    });
  }

  private async suppress(
    m: EntityManager,
    rows: { projectId: string; email: string; detail: string }[],
  ): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, Suppression)} (project_id, email, reason, detail)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::text[]) ON CONFLICT DO NOTHING`,
      [rows.map((r) => r.projectId), rows.map((r) => r.email), rows.map(() => 'bounce'), rows.map((r) => r.detail)],
    );
  }

  private async suppressedOf(batch: EmailRow[]): Promise<Set<string>> {
    const rows: { project_id: string; email: string }[] = await this.db.query(
      `SELECT s.project_id, s.email FROM ${tableName(this.db, Suppression)} s
        JOIN unnest($1::varchar[], $2::varchar[]) AS x(project_id, email) ON s.project_id = x.project_id AND s.email = x.email`,
      [batch.map((e) => e.projectId), batch.map((e) => e.toEmail)],
    );
    return new Set(rows.map((r) => `${r.project_id}\u0000${r.email}`));
  }

  private async renewLeases(): Promise<void> {
    if (this.inFlight.size === 0) return;
    try {
      await this.db.query(
        `UPDATE ${tableName(this.db, Email)} SET lease_until = now() + ($2 || ' milliseconds')::interval WHERE id = ANY($1::varchar[]) AND status = 'sending'`,
        [[...this.inFlight], String(this.settings.DELIVERY_LEASE_MS)],
      );
    } catch (err) {
      log.warn('could not renew delivery leases', { error: (err as Error).message });
    }
  }

  /** Emails of a crashed worker: back to the queue, or sent when their hand-off was recorded. */
  private async recoverExpired(): Promise<void> {
    const table = tableName(this.db, Email);
    await this.db.transaction(async (m) => {
      const [rows] = (await m.query(
        `UPDATE ${table} SET lease_until = NULL,
                status = CASE WHEN handoff_at IS NULL THEN 'queued' ELSE 'sent' END,
                sent_at = CASE WHEN handoff_at IS NULL THEN NULL ELSE handoff_at END,
                error = CASE WHEN handoff_at IS NULL THEN error ELSE 'Recovered after a worker stopped mid-delivery; the hand-off was recorded, so it counts as sent and is never resent' END
          WHERE status = 'sending' AND lease_until < now() RETURNING *`,
      )) as [Record<string, unknown>[], number];
      const sent = rows
        .filter((r) => r.status === 'sent')
        .map((r) => this.db.getRepository(Email).create(emailFromRow(r)));
      if (rows.length > 0) {
        log.info('recovered emails of a stopped worker', { requeued: rows.length - sent.length, sent: sent.length });
        deliveryMetrics.recovered.inc({ as: 'requeued' }, rows.length - sent.length);
        deliveryMetrics.recovered.inc({ as: 'sent' }, sent.length);
      }
      await this.history.publish(
        m,
        sent.map((e) =>
          EmailSent.create({
            projectId: e.projectId,
            source: SENDING,
            payload: emailEventPayload(e, { messageId: e.messageId }),
          }),
        ),
      );
    });
  }
}
