import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import {
  e2eMode,
  eventually as eventuallyWithin,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { newProject } from './contacts-helpers.js';
import { SendingDb } from './sending-helpers.js';
import { buildWorkflow, projectWithDomain } from './workflows-helpers.js';

const eventually: typeof eventuallyWithin = (probe, options = {}) =>
  eventuallyWithin(probe, { timeoutMs: 30_000, ...options });

/** A span as the OTLP/HTTP JSON exporter posts it, with its process's `service.name`. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttrs = { key: string; value: OtlpValue }[] | undefined;
const attrs = (list: OtlpAttrs) =>
  Object.fromEntries(
    (list ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue,
    ]),
  );

/**
 * A loopback OTLP/HTTP collector: every Herald process (one, or one per service) exports its spans
 * here as JSON, so one test sees the spans of every process, as a collector would.
 */
async function startCollector(): Promise<{ url: string; spans: ExportedSpan[]; close(): Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const doc = JSON.parse(body.toString('utf8')) as {
        resourceSpans: {
          resource: { attributes: OtlpAttrs };
          scopeSpans: {
            spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes: OtlpAttrs }[];
          }[];
        }[];
      };
      for (const rs of doc.resourceSpans ?? []) {
        const service = String(attrs(rs.resource.attributes)['service.name']);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              attributes: attrs(s.attributes),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The chain of parents of `span` within its trace, nearest first (names). */
function ancestry(spans: ExportedSpan[], span: ExportedSpan): ExportedSpan[] {
  const byId = new Map(spans.filter((s) => s.traceId === span.traceId).map((s) => [s.spanId, s]));
  const chain: ExportedSpan[] = [];
  for (let p = span.parentSpanId && byId.get(span.parentSpanId); p; p = p.parentSpanId && byId.get(p.parentSpanId))
    chain.push(p);
  return chain;
}

/**
 * The span's ancestors up to the public request's span, once all of them reached the collector:
 * each process exports its spans in batches as they end, and a parent often ends after its child
 * (an in-process publish span closes after its consumers ran), so a chain read at once may stop
 * short. Complete means the last ancestor's parent is the caller's span (the traceparent sent).
 */
function exportedAncestry(
  collector: Awaited<ReturnType<typeof startCollector>>,
  span: ExportedSpan,
  callerSpanId: string,
): Promise<ExportedSpan[]> {
  return eventually(
    () => {
      const chain = ancestry(collector.spans, span);
      return chain[chain.length - 1]?.parentSpanId === callerSpanId ? chain : undefined;
    },
    { message: `the ancestors of ${span.name} never all reached the collector` },
  );
}

/**
 * Traces (issue 39 item 6, ADR 0019): with an OTLP endpoint configured, one request is one trace
 * from the public HTTP span through internal calls, the outbox, the bus (in-process or Kafka), the
 * consumers and the delivery worker to the SMTP hand-off. Runs in the run's mode (HERALD_E2E_MODE).
 */
describe(`traces (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let herald: Topology;
  let sending: SendingDb;
  let owner: string;

  beforeAll(async () => {
    [dns, smtp, collector] = await Promise.all([startDnsServer(), startSmtpSink(), startCollector()]);
    herald = await startTopology({
      exclusive: true,
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        DNS_SERVERS: dns.address,
        SMTP_URL: smtp.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
    sending = new SendingDb(herald.db.url);
    owner = (await newProject(herald.url)).cookie;
  }, 360_000);

  afterAll(async () => {
    await sending?.end();
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop(), collector?.close()]);
  }, 60_000);

  it('POST /v1/send is one trace, from the caller’s traceparent through the intake and the outbox to the SMTP hand-off', async () => {
    const api = await projectWithDomain(herald.url, owner, dns, sending);
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${herald.url}/v1/send`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.key}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      body: JSON.stringify({ to: 'traced@example.com', from: api.from, subject: 'Traced', body: '<p>Hi</p>' }),
    });
    expect(res.status).toBe(200);
    const inTrace = () => collector.spans.filter((s) => s.traceId === traceId);
    const smtpSpan = await eventually(() => inTrace().find((s) => s.name === 'smtp send'), {
      message: 'no smtp send span in the request’s trace',
    });
    // the SMTP hand-off descends from the public request's span (the email row kept its traceparent)
    const chain = (await exportedAncestry(collector, smtpSpan, callerSpanId)).map((s) => `${s.service}:${s.name}`);
    expect(chain[chain.length - 1]).toBe(
      herald.mode === 'standalone' ? 'herald:POST /v1/send' : 'gateway:POST /v1/send',
    );
    expect(inTrace().some((s) => s.name === 'queue emails')).toBe(true);
    expect(smtpSpan.attributes['herald.delivery.outcome']).toBe('sent');
    // the contact upserted by the send went out through contacts' outbox and was consumed in the same trace
    await eventually(() =>
      inTrace().some((s) => s.name === 'publish contact.created') &&
      inTrace().some((s) => s.name === 'process contact.created')
        ? true
        : undefined,
    );
    const consumed = inTrace().find((s) => s.name === 'process contact.created')!;
    expect((await exportedAncestry(collector, consumed, callerSpanId))[0]!.name).toBe('publish contact.created');
    if (herald.mode === 'distributed') {
      // the gateway's proxy and the internal calls carried the context to the other processes
      expect(inTrace().some((s) => s.service === 'sending' && s.name === 'POST /v1/send')).toBe(true);
      expect(inTrace().some((s) => s.service === 'contacts' && s.name.startsWith('POST /internal/calls/'))).toBe(true);
    }
  });

  it('POST /v1/track is one trace through contacts’ outbox to the consumers of event.tracked (segments, workflows), and on through the workflow’s SEND_EMAIL step and its intake call to the SMTP hand-off', async () => {
    const api = await projectWithDomain(herald.url, owner, dns, sending);
    const template = (
      await api.post<{ id: string }>('/templates', {
        name: 'Traced welcome',
        subject: 'Traced welcome',
        body: '<p>Welcome</p>',
        from: api.from,
        type: 'transactional',
      })
    ).body.id;
    await buildWorkflow(api, { eventName: 'traced-signup', steps: [['SEND_EMAIL', { templateId: template }]] });
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${herald.url}/v1/track`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.key}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      body: JSON.stringify({ email: 'tracked@example.com', event: 'traced-signup', data: { plan: 'pro' } }),
    });
    expect(res.status).toBe(200);
    const inTrace = () => collector.spans.filter((s) => s.traceId === traceId);
    const consumers = await eventually(() => {
      const groups = new Set(
        inTrace()
          .filter((s) => s.name === 'process event.tracked')
          .map((s) => String(s.attributes['messaging.consumer.group.name'])),
      );
      return groups.has('segments') && groups.has('workflows') ? groups : undefined;
    });
    expect(consumers).toEqual(expect.any(Set));
    // each consumer's span descends from the publish span of event.tracked, under the public request's
    for (const span of inTrace().filter((s) => s.name === 'process event.tracked')) {
      const chain = (await exportedAncestry(collector, span, callerSpanId)).map((s) => s.name);
      expect(chain[0]).toBe('publish event.tracked');
      expect(chain[chain.length - 1]).toBe('POST /v1/track');
    }
    // the workflow's step run kept the event's trace (its traceparent column): the runner ran the
    // SEND_EMAIL step in it, its intake call carried it to sending, and the email's row to the SMTP hand-off
    await eventually(() => (smtp.messages.some((m) => m.to.includes('tracked@example.com')) ? true : undefined));
    const smtpSpan = await eventually(
      () => inTrace().find((s) => s.name === 'smtp send' && s.attributes['herald.delivery.outcome'] === 'sent'),
      { message: 'no smtp send span in the tracked event’s trace' },
    );
    const chain = await exportedAncestry(collector, smtpSpan, callerSpanId);
    const names = chain.map((s) => s.name);
    const at = (name: string) => names.indexOf(name);
    expect(at('call sending.intake')).toBeGreaterThanOrEqual(0);
    expect(at('workflow step SEND_EMAIL')).toBeGreaterThan(at('call sending.intake'));
    const consumed = chain.find((s) => s.name === 'process event.tracked');
    expect(consumed?.attributes['messaging.consumer.group.name']).toBe('workflows');
    expect(names.indexOf('process event.tracked')).toBeGreaterThan(at('workflow step SEND_EMAIL'));
    expect(names[names.length - 1]).toBe('POST /v1/track');
    const step = chain[at('workflow step SEND_EMAIL')]!;
    expect(step.attributes['herald.workflow.step_type']).toBe('SEND_EMAIL');
    if (herald.mode === 'distributed') {
      // the step ran in the workflows process, the intake and the hand-off in sending's
      expect(step.service).toBe('workflows');
      expect(smtpSpan.service).toBe('sending');
      expect(chain.some((s) => s.service === 'sending' && s.name.startsWith('POST /internal/calls/'))).toBe(true);
    }
  });
});
