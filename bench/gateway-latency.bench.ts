/**
 * The gateway's added latency: `npm run bench -- gateway-latency`.
 * Distributed mode (separate processes): the same request, `GET /events/stats` of a project, sent
 * (a) straight to the contacts service with a gateway-signed principal and (b) through the gateway
 * with the project's secret key (key lookup, rate-limit count in Redis, principal signing, proxy).
 * One request at a time on keep-alive connections, after a warm-up; prints median and p99 of both
 * and the difference.
 */
import os from 'node:os';
import {
  accountWithProject,
  bearer,
  freePort,
  principalHeaders,
  ServiceProcess,
  startKafka,
  startRedis,
  TEST_INTERNAL_SECRET,
} from '@herald/testing';
import { benchDatabase } from './support.js';

const N = Number(process.env.BENCH_REQUESTS ?? 3000);
const WARMUP = 300;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(
  url: string,
  headers: Record<string, string>,
): Promise<{ p50: number; p99: number; rps: number }> {
  for (let i = 0; i < WARMUP; i++) await (await fetch(url, { headers })).arrayBuffer();
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - t);
  }
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), rps: Math.round((N / elapsed) * 1000) };
}

const db = await benchDatabase('gateway_latency');
const dbUrl = db.url;
const [kafka, redis] = await Promise.all([startKafka(), startRedis()]);
const procs: ServiceProcess[] = [];
try {
  const env = {
    DATABASE_URL: dbUrl,
    KAFKA_BROKERS: kafka.brokers.join(','),
    INTERNAL_JWT_SECRET: TEST_INTERNAL_SECRET,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    LOG_LEVEL: 'warn',
  };
  for (const app of ['gateway', 'contacts']) {
    const m = new ServiceProcess(app, await freePort(), env, ['migrate']);
    await m.start({ waitReady: false });
    if ((await m.exitCode()) !== 0) throw new Error(m.output);
  }
  const contacts = new ServiceProcess('contacts', await freePort(), env);
  procs.push(contacts);
  await contacts.start();
  const elsewhere = 'http://127.0.0.1:9';
  const gateway = new ServiceProcess('gateway', await freePort(), {
    ...env,
    REDIS_URL: redis.url,
    RATE_LIMIT_PER_MINUTE: '100000000',
    CONTACTS_URL: contacts.url,
    SENDING_URL: elsewhere,
    CAMPAIGNS_URL: elsewhere,
    SEGMENTS_URL: elsewhere,
    WORKFLOWS_URL: elsewhere,
    DOMAINS_URL: elsewhere,
    ANALYTICS_URL: elsewhere,
    WEBHOOKS_URL: elsewhere,
  });
  procs.push(gateway);
  await gateway.start();
  const project = await accountWithProject(gateway.url);

  const direct = await measure(`${contacts.url}/events/stats`, principalHeaders(project.projectId));
  const viaGateway = await measure(`${gateway.url}/events/stats`, bearer(project.secretKey));
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  console.log(
    `GET /events/stats, ${N} sequential requests each, keep-alive, ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.log(`  direct to contacts : p50 ${ms(direct.p50)}  p99 ${ms(direct.p99)}  (${direct.rps} req/s)`);
  console.log(`  through the gateway: p50 ${ms(viaGateway.p50)}  p99 ${ms(viaGateway.p99)}  (${viaGateway.rps} req/s)`);
  console.log(`  added by the gateway: p50 ${ms(viaGateway.p50 - direct.p50)}  p99 ${ms(viaGateway.p99 - direct.p99)}`);
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await kafka.stop();
  await redis.stop();
  await db.close();
}
