/**
 * Campaign-sized mail through sending's internal intake, and the priority lane:
 * `npm run bench -- campaign-priority`.
 * Standalone mode (one process) on a project with a sender domain verified over a loopback DNS
 * server (its mail DKIM-signed, RSA-2048), delivering into a loopback SMTP sink that only counts
 * (bench/counting-sink.ts).
 *
 *  1. BENCH_RECIPIENTS (20 000) campaign emails of ~10 KB of HTML, personalised per recipient
 *     (contact fields and data, subscription links, click and open tracking), are posted to
 *     POST /internal/calls/sending.intake in calls of 500 (BENCH_CALLERS = 2 calls in flight, as a campaign
 *     sender would) in the bulk lane, while the delivery worker drains them into the sink;
 *  2. meanwhile, BENCH_PROBE_RATE (5) /v1/send a second (transactional, one recipient each) until
 *     the bulk mail has all reached the sink: each probe's time-to-relay is from just before its
 *     request to its arrival at the sink (target: p99 ≤ 2 s, issue 22 item 4);
 *  3. Herald is stopped, then raw nodemailer (pooled SMTP transport, 5 connections and maxMessages
 *     1 000 like Herald's, 100 sendMail calls in flight like a delivery batch, DKIM with a parsed
 *     RSA-2048 KeyObject) sends BENCH_RAW (5 000) of those very messages (read back from
 *     sending.emails: same from/to/subject/html/text/headers) to the same sink.
 *
 * Figures: intake emails/s; delivery emails/s at the sink (first to last message); end to end
 * (first intake call to last message) — target ≥ 350 emails/s and ≥ 50% of raw nodemailer; peak
 * RSS of the Herald process (VmHWM); probe time-to-relay p50/p99/max.
 */
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { accountWithProject, bearer, principalHeaders, startDnsServer } from '@herald/testing';
import { startCountingSink } from './counting-sink.js';
import { benchDatabase, httpClient, ms, num, printTable, sleep, startStandalone, summarise } from './support.js';
import { target } from './targets.js';

const SECRET = 'bench-internal-secret-0123456789abcdef0123456789';
const epochNow = () => performance.timeOrigin + performance.now();

/** About 10 KB of HTML with per-recipient fields, a few tracked links and the unsubscribe link. */
function campaignBody(): string {
  const paragraph = (i: number) =>
    `<tr><td style="padding:12px 24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:22px;color:#333">` +
    `<h2 style="margin:0 0 8px">Story ${i}: what changed in {{city ?? "your city"}} this week</h2>` +
    `<p>Hello {{name}}, here is the part of the digest that matters to a {{plan}} member like you. ` +
    `We looked at the numbers, talked to the people involved and wrote down what it means for the weeks ahead. ` +
    `Nothing here needs an answer; read it when you have a quiet moment.</p>` +
    `<p><a href="https://www.example.com/stories/${i}?utm_source=digest&amp;utm_medium=email">Read story ${i}</a></p></td></tr>`;
  return (
    `<html><body style="margin:0;background:#f4f4f4"><table width="100%" cellpadding="0" cellspacing="0">` +
    `<tr><td style="padding:24px"><h1>The weekly digest for {{name}}</h1><p>Sent to {{email}}</p></td></tr>` +
    Array.from({ length: 14 }, (_, i) => paragraph(i + 1)).join('') +
    `<tr><td style="padding:24px;font-size:12px;color:#888">You get this because you subscribed. ` +
    `<a href="{{manageUrl}}">Manage your preferences</a> or <a href="{{unsubscribeUrl}}">unsubscribe</a>.</td></tr>` +
    `</table></body></html>`
  );
}

/** Peak and current resident set (MB) of this process's children (the Herald server). */
async function childMemory(): Promise<{ hwm: number; rss: number }> {
  let hwm = 0;
  let rss = 0;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
    hwm = Math.max(hwm, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024);
    rss += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
  }
  return { hwm, rss };
}

async function main(): Promise<void> {
  const TOTAL = Number(process.env.BENCH_RECIPIENTS ?? 20_000);
  const CALL = 500;
  const CALLERS = Number(process.env.BENCH_CALLERS ?? 2);
  const PROBE_RATE = Number(process.env.BENCH_PROBE_RATE ?? 5);
  const RAW = Math.min(TOTAL, Number(process.env.BENCH_RAW ?? 5_000));
  const run = Date.now().toString(36);
  const domain = `campaign-${run}.example.test`;
  const from = `news@${domain}`;
  const body = campaignBody();

  const db = await benchDatabase('campaign_priority');
  const admin = new pg.Pool({ connectionString: db.url, max: 2 });
  const dns = await startDnsServer();
  const sink = await startCountingSink('probe-');
  let herald: Awaited<ReturnType<typeof startStandalone>> | undefined;
  try {
    herald = await startStandalone(db, {
      DNS_SERVERS: dns.address,
      APP_URL: 'http://127.0.0.1:3000',
      SMTP_URL: sink.url,
      INTERNAL_JWT_SECRET: SECRET,
      ...(process.env.BENCH_DELIVERY_BATCH ? { DELIVERY_BATCH_SIZE: process.env.BENCH_DELIVERY_BATCH } : {}),
    });
    const project = await accountWithProject(herald.url);
    const headers = bearer(project.secretKey);
    const api = async <T>(method: string, path: string, payload?: unknown): Promise<T> => {
      const res = await fetch(`${herald!.url}${path}`, {
        method,
        headers,
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    };
    const created = await api<{ id: string; records: { name: string; value: string }[] }>('POST', '/domains', {
      domain,
    });
    for (const r of created.records) dns.set(r.name, 'TXT', r.value);
    const checked = await api<{ status: string }>('GET', `/domains/${created.id}/verify`);
    if (checked.status !== 'verified') throw new Error(`the domain was not verified: ${JSON.stringify(checked)}`);
    for (let i = 0; ; i++) {
      const r = await admin.query(`SELECT verified FROM sending.sender_domains WHERE domain_id = $1`, [created.id]);
      if (r.rows[0]?.verified) break;
      if (i > 300) throw new Error('the sending service never learned of the verified domain');
      await sleep(50);
    }
    const projectId = (
      await admin.query(`SELECT project_id FROM sending.sender_domains WHERE domain_id = $1`, [created.id])
    ).rows[0].project_id as string;
    // a service principal lives 60 s: signed afresh for every call, as InternalClient does
    const internal = () => principalHeaders(projectId, SECRET, { kind: 'service', service: 'campaigns', projectId });
    const cities = ['Lisbon', 'Oslo', 'Quito', 'Nairobi', 'Osaka'];
    const items = (call: number) =>
      Array.from({ length: Math.min(CALL, TOTAL - call * CALL) }, (_, k) => {
        const n = call * CALL + k;
        return {
          key: `campaign:cmp_bench:${n}`,
          to: `reader-${n}@bench.test`,
          contact: {
            id: `ctc_${run}_${n}`,
            email: `reader-${n}@bench.test`,
            subscribed: true,
            data: { name: `Reader ${n}`, plan: n % 3 ? 'free' : 'pro', ...(n % 4 ? { city: cities[n % 5] } : {}) },
          },
          from,
          fromName: 'Bench Digest',
          subject: 'The weekly digest for {{name}}',
          body,
          category: 'marketing',
          origin: 'campaign',
          campaignId: 'cmp_bench',
        };
      });
    const calls = Math.ceil(TOTAL / CALL);
    const payloads = Array.from({ length: calls }, (_, c) => JSON.stringify({ items: items(c) }));
    console.error(`payload of one call: ${(payloads[0]!.length / 1024 / 1024).toFixed(1)} MB`);

    // ---- 1 and 2: intake while draining, with /v1/send probes --------------------------------
    const client = httpClient(herald.url, CALLERS + 8);
    sink.reset();
    let peak = { hwm: 0, rss: 0 };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const m = await childMemory();
        peak = { hwm: Math.max(peak.hwm, m.hwm), rss: Math.max(peak.rss, m.rss) };
        await sleep(250);
      }
    })();
    const started = epochNow();
    const callLatencies: number[] = [];
    let next = 0;
    const intake = Promise.all(
      Array.from({ length: CALLERS }, async () => {
        while (next < calls) {
          const c = next++;
          const t = performance.now();
          const res = await client.request('POST', '/internal/calls/sending.intake', internal(), payloads[c]);
          if (res.status !== 200)
            throw new Error(`/internal/calls/sending.intake answered ${res.status}: ${res.body.slice(0, 300)}`);
          callLatencies.push(performance.now() - t);
        }
      }),
    ).then(() => epochNow());

    const probes: { address: string; sentAt: number; acceptMs: number; backlog: number }[] = [];
    /** Probes /v1/send refused (each counts against the priority target: that mail never went out). */
    const probeErrors: string[] = [];
    const probing = (async () => {
      const pending: Promise<void>[] = [];
      for (let i = 0; sink.read().count < TOTAL; i++) {
        const due = started + (i * 1000) / PROBE_RATE;
        const wait = due - epochNow();
        if (wait > 0) await sleep(wait);
        const address = `probe-${i}@bench.test`;
        const sentAt = epochNow();
        const backlog = next * CALL - sink.read().count; // bulk mail accepted (or in the call in flight) but not yet at the sink
        pending.push(
          client
            .request(
              'POST',
              '/v1/send',
              headers,
              JSON.stringify({ to: address, from, subject: 'Your sign-in code', body: '<p>Code: 123456</p>' }),
            )
            .then(
              (res) => {
                if (res.status === 200) probes.push({ address, sentAt, acceptMs: epochNow() - sentAt, backlog });
                else probeErrors.push(`${res.status}: ${res.body.slice(0, 200)}`);
              },
              (err: Error) => void probeErrors.push(err.message),
            ),
        );
      }
      await Promise.all(pending);
    })();
    const intakeDoneAt = await intake;
    const drained = await sink.waitFor(TOTAL, 600_000);
    await probing;
    // every probe accepted must arrive
    let arrivals: Record<string, number> = {};
    for (let i = 0; i < 600; i++) {
      arrivals = await sink.probes();
      if (probes.every((p) => arrivals[p.address] !== undefined)) break;
      await sleep(100);
    }
    sampling = false;
    await sampler;
    const delivered = sink.read();
    client.close();
    const bulkLast = delivered.lastAt;
    if (!drained) console.error(`warning: only ${delivered.count} of ${TOTAL} emails reached the sink within 600 s`);
    const sentRows = Number(
      (await admin.query(`SELECT count(*) AS n FROM sending.emails WHERE status IN ('sent', 'delivered')`)).rows[0].n,
    );
    await herald.stop();
    herald = undefined;

    // ---- 3. raw nodemailer: the same messages, same sink ------------------------------------
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'der' },
    });
    const messages = (
      await admin.query(
        `SELECT message_id, from_email, from_name, to_email, subject, html, text, headers FROM sending.emails
          WHERE campaign_id = 'cmp_bench' ORDER BY source_key LIMIT $1`,
        [RAW],
      )
    ).rows as {
      message_id: string;
      from_email: string;
      from_name: string | null;
      to_email: string;
      subject: string;
      html: string;
      text: string;
      headers: Record<string, string>;
    }[];
    const transport = nodemailer.createTransport({
      url: sink.url,
      pool: true,
      maxConnections: 5,
      maxMessages: 1000,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    const dkim = {
      domainName: domain,
      keySelector: 'bench',
      privateKey: createPrivateKey(privateKey) as unknown as string,
    };
    sink.reset();
    const rawStarted = epochNow();
    let rawNext = 0;
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        while (rawNext < messages.length) {
          const m = messages[rawNext++]!;
          await transport.sendMail({
            messageId: `<${m.message_id}>`,
            from: m.from_name ? { name: m.from_name, address: m.from_email } : m.from_email,
            to: m.to_email,
            subject: m.subject,
            html: m.html,
            text: m.text,
            headers: m.headers,
            dkim,
          });
        }
      }),
    );
    transport.close();
    const raw = sink.read();
    const rawRate = ((raw.count - 1) / (raw.lastAt - raw.firstAt)) * 1000;
    const rawWhole = (raw.count / (raw.lastAt - rawStarted)) * 1000;

    // ---- figures -------------------------------------------------------------------------------
    const relay = summarise(probes.map((p) => arrivals[p.address]! - p.sentAt).filter((x) => Number.isFinite(x)));
    const underLoad = probes.filter((p) => p.backlog > 0 && p.sentAt < bulkLast);
    const relayUnderLoad = summarise(underLoad.map((p) => arrivals[p.address]! - p.sentAt));
    const accept = summarise(probes.map((p) => p.acceptMs));
    const call = summarise(callLatencies);
    const intakeRate = (TOTAL / (intakeDoneAt - started)) * 1000;
    const deliveryRate = ((delivered.count - 1) / (delivered.lastAt - delivered.firstAt)) * 1000;
    const endToEnd = (delivered.count / (delivered.lastAt - started)) * 1000;
    const avgBytes = delivered.bytes / Math.max(1, delivered.count);
    console.log(
      `\ncampaign-priority: ${num(TOTAL)} bulk emails (${(avgBytes / 1024).toFixed(1)} KB each at the sink, DKIM-signed) + ${probes.length} /v1/send probes; ${sentRows} rows sent\n`,
    );
    printTable([
      ['figure', 'measured', 'raw nodemailer (same sink, same messages)', 'target'],
      ['intake (POST /internal/calls/sending.intake, 500 per call)', `${num(intakeRate)} emails/s`, '', ''],
      ['  call latency p50 / p99', `${ms(call.p50)} / ${ms(call.p99)}`, '', ''],
      [
        'delivery, first to last message',
        `${num(deliveryRate)} emails/s`,
        `${num(rawRate)} emails/s (${num(rawWhole)} incl. start)`,
        '',
      ],
      [
        'end to end, first call to last message',
        `${num(endToEnd)} emails/s`,
        `ratio ${((endToEnd / rawWhole) * 100).toFixed(0)}% of raw`,
        '≥ 350 emails/s, ≥ 50%',
      ],
      ['peak RSS of the Herald process', `${num(peak.hwm)} MB`, '', '≤ 600 MB'],
      [
        `/v1/send time-to-relay while bulk drains (n=${relayUnderLoad.count})`,
        `p50 ${ms(relayUnderLoad.p50)}, p99 ${ms(relayUnderLoad.p99)}, max ${ms(relayUnderLoad.max)}`,
        '',
        'p99 ≤ 2 s',
      ],
      [`/v1/send time-to-relay, every probe (n=${relay.count})`, `p50 ${ms(relay.p50)}, p99 ${ms(relay.p99)}`, '', ''],
      ['/v1/send answer p50 / p99', `${ms(accept.p50)} / ${ms(accept.p99)}`, '', ''],
      ['/v1/send refused', `${probeErrors.length}${probeErrors[0] ? ` (first: ${probeErrors[0]})` : ''}`, '', '0'],
    ]);
    const rawLimit = `raw nodemailer ${num(rawWhole)}/s incl. start`;
    console.log('');
    printTable([
      ['target', 'result'],
      [
        'end to end ≥ 50% of raw nodemailer (issue 22)',
        target({
          target: 'bulk end to end ≥ 50% of raw nodemailer (issue 22)',
          measured: `${num(endToEnd)}/s`,
          raw: rawLimit,
          ratio: endToEnd / rawWhole,
          met: endToEnd / rawWhole >= 0.5,
        }),
      ],
      [
        'end to end ≥ 350 emails/s (issue 22)',
        target({
          target: 'bulk end to end ≥ 350 emails/s (issue 22)',
          measured: `${num(endToEnd)}/s`,
          met: endToEnd >= 350,
        }),
      ],
      [
        '/v1/send time-to-relay p99 ≤ 2 s while bulk drains, none refused (issue 22)',
        target({
          target: '/v1/send time-to-relay p99 ≤ 2 s while bulk drains, none refused (issue 22)',
          measured: `${ms(relayUnderLoad.p99)}, ${probeErrors.length} refused`,
          met: relayUnderLoad.p99 <= 2000 && probeErrors.length === 0,
        }),
      ],
      [
        'peak RSS ≤ 600 MB (issue 22)',
        target({ target: 'peak RSS ≤ 600 MB (issue 22)', measured: `${num(peak.hwm)} MB`, met: peak.hwm <= 600 }),
      ],
    ]);
  } catch (err) {
    if (herald) console.error(`last lines of Herald's output:\n${herald.output.slice(-4000)}`);
    throw err;
  } finally {
    await herald?.stop();
    await sink.stop();
    await dns.stop();
    await admin.end();
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
