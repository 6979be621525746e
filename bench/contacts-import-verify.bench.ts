/**
 * List verification at import: `npm run bench -- contacts-import-verify`.
 * Standalone mode, its DNS answered by the loopback DNS server of @herald/testing (DNS_SERVERS). A
 * generated CSV of 50,000 rows (`email,first_name,plan`) over 500 distinct domains: 492 company
 * domains with MX records, a disposable one (mailinator.com) and a misspelt one (gamil.com) with MX,
 * 3 with no MX nor A (NS only) and 3 that do not exist; one row in 50 a role address (`info+7@…`,
 * `sales+57@…`: distinct addresses, a role's local part). The same file is imported into new projects
 * with `POST /contacts/import` (multipart), timed from the start of the upload to `status: completed`
 * (polled every 100 ms), rounds alternating: without verification, with `?verify=true`, and with
 * `?verify=true&skipInvalid=true`; between two imports the outbox drains (not timed; at most 300 s,
 * so a backlog the relay has not worked off by then drains during the next import, whichever it is).
 *
 * Beside them, in the same process as the bench: the verification's two parts alone, through
 * @herald/verification — the 500 domains' DNS lookups (MX, A, AAAA, NS, SOA each) against the same
 * loopback server, IMPORT_VERIFY_CONCURRENCY (16) at a time; and the checks of 50,000 addresses with
 * every domain already known (what is left per row: parse, role, verdict).
 */
import os from 'node:os';
import pg from 'pg';
import { loadConfig } from '@herald/core';
import { accountWithProject, createProject, startDnsServer } from '@herald/testing';
import { dnsResolverFactory, ListVerification, ListVerifier, VerifySettings } from '@herald/verification';
import {
  benchDatabase,
  machineBusy,
  ms,
  num,
  printTable,
  sleep,
  startStandalone,
  waitOutboxDrained,
} from './support.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const COMPANIES = 492;
const NO_MAIL = ['nomx-1.test', 'nomx-2.test', 'nomx-3.test'];
const MISSING = ['gone-1.test', 'gone-2.test', 'gone-3.test'];
const DOMAINS = [
  ...Array.from({ length: COMPANIES }, (_, i) => `company-${String(i).padStart(3, '0')}.test`),
  'mailinator.com',
  'gamil.com',
  ...NO_MAIL,
  ...MISSING,
];
const ROLES = ['info', 'sales', 'admin', 'support', 'contact'];
const FIRST = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];
const PLANS = ['free', 'starter', 'pro', 'enterprise'];

function makeCsv(): string {
  const lines = ['email,first_name,plan'];
  for (let i = 0; i < ROWS; i++) {
    const first = FIRST[i % FIRST.length]!;
    const domain = DOMAINS[i % DOMAINS.length]!;
    // distinct addresses: a role address once in 50 rows, each on its own domain round
    const local = i % 50 === 7 ? `${ROLES[i % ROLES.length]!}+${i}` : `${first}.${String(i).padStart(6, '0')}`;
    lines.push(`${local}@${domain},${first},${PLANS[i % PLANS.length]}`);
  }
  return `${lines.join('\n')}\n`;
}

interface Job {
  status: string;
  imported: number;
  skipped: number;
  verification?: { checked: number; passed: number; counts: Record<string, number> };
}

async function importCsv(
  baseUrl: string,
  secretKey: string,
  csv: string,
  query: string,
): Promise<{ ms: number; job: Job }> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  const auth = { authorization: `Bearer ${secretKey}` };
  const started = performance.now();
  const res = await fetch(`${baseUrl}/contacts/import${query ? `?${query}` : ''}`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  if (res.status !== 202) throw new Error(`POST /contacts/import?${query} answered ${res.status}: ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  for (;;) {
    const job = (await (await fetch(`${baseUrl}/contacts/import/${jobId}`, { headers: auth })).json()) as Job;
    if (job.status === 'completed' || job.status === 'failed') return { ms: performance.now() - started, job };
    if (performance.now() - started > 300_000) throw new Error(`import ${jobId} not done after 300 s`);
    await sleep(100);
  }
}

const dns = await startDnsServer();
for (const domain of [...DOMAINS.slice(0, COMPANIES), 'mailinator.com', 'gamil.com']) {
  dns.set(domain, 'MX', { priority: 10, exchange: `mx.${domain}` });
  dns.set(domain, 'A', '192.0.2.10');
}
for (const domain of NO_MAIL) dns.set(domain, 'NS', `ns1.${domain}`);
const settings = loadConfig(VerifySettings, { DNS_SERVERS: dns.address });
const db = await benchDatabase('import_verify');
const admin = new pg.Pool({ connectionString: db.url, max: 2 });
let herald: Awaited<ReturnType<typeof startStandalone>> | undefined;
try {
  const idleBusy = await machineBusy(2000);
  herald = await startStandalone(db, { DNS_SERVERS: dns.address });
  const account = await accountWithProject(herald.url);
  const csv = makeCsv();
  const csvBytes = Buffer.byteLength(csv);

  const forms = [
    { label: 'POST /contacts/import (no verification)', query: '' },
    { label: 'POST /contacts/import?verify=true', query: 'verify=true' },
    { label: '?verify=true&skipInvalid=true', query: 'verify=true&skipInvalid=true' },
  ];
  const times = new Map<string, number[]>(forms.map((f) => [f.label, []]));
  const jobs = new Map<string, Job>();
  const dnsQueries: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const form of round % 2 === 0 ? forms : [...forms].reverse()) {
      const { secretKey } = await createProject(herald.url, account.cookie);
      const asked = dns.queries.length;
      const { ms: took, job } = await importCsv(herald.url, secretKey, csv, form.query);
      if (job.status !== 'completed') throw new Error(`${form.label}: ${JSON.stringify(job)}`);
      if (form.query) dnsQueries.push(dns.queries.length - asked);
      times.get(form.label)!.push(took);
      jobs.set(form.label, job);
      await waitOutboxDrained(admin, 300_000);
    }
  }
  await herald.stop();
  herald = undefined;

  // ---- the verification's parts alone, in this process -------------------------------------
  const lookups = new ListVerifier(settings, dnsResolverFactory(settings)).start();
  const emails = csv
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => line.slice(0, line.indexOf(',')));
  let t = performance.now();
  await lookups.learn(emails.filter((_, i) => i < DOMAINS.length)); // one address of each domain
  const rawDns = performance.now() - t;
  const nodata = { status: 'nodata' } as const;
  const known = new ListVerification(
    async () => ({ MX: nodata, A: nodata, AAAA: nodata, NS: nodata, SOA: nodata }),
    16,
  );
  await known.learn(emails.filter((_, i) => i < DOMAINS.length));
  t = performance.now();
  for (const email of emails) known.verdictOf(email);
  const rawChecks = performance.now() - t;

  const best = (label: string) => Math.min(...times.get(label)!);
  const all = (label: string) => times.get(label)!.map(ms).join(', ');
  const plain = best(forms[0]!.label);
  const result = (job: Job) =>
    `${num(job.imported)} imported, ${num(job.skipped)} skipped` +
    (job.verification
      ? `; ${Object.entries(job.verification.counts)
          .filter(([, n]) => n > 0)
          .map(([v, n]) => `${v} ${num(n)}`)
          .join(', ')}`
      : '');
  console.log(
    `\nCSV import with list verification, standalone mode: ${num(ROWS)} rows over ${DOMAINS.length} domains, ${(csvBytes / 1e6).toFixed(2)} MB; DNS from the loopback DNS server;` +
      ` ${ROUNDS} rounds (best time shown, every time in brackets); ${os.cpus().length} cores, ${Math.round(idleBusy)}% busy with other work before the start; Node ${process.version}`,
  );
  printTable([
    ['contacts-import-verify', 'upload → completed', 'rate', 'vs no verification', 'result'],
    ...forms.map((f) => [
      `${f.label} [${all(f.label)}]`,
      ms(best(f.label)),
      `${num((ROWS / best(f.label)) * 1000)} rows/s`,
      f.query
        ? `${best(f.label) >= plain ? '+' : '−'}${ms(Math.abs(best(f.label) - plain))} (${(best(f.label) / plain).toFixed(2)}×)`
        : '',
      result(jobs.get(f.label)!),
    ]),
    [
      `raw: ${DOMAINS.length} domains' DNS lookups, 16 at once`,
      ms(rawDns),
      `${num((DOMAINS.length / rawDns) * 1000)} domains/s`,
      '',
      '',
    ],
    [
      `raw: ${num(ROWS)} addresses checked, domains known`,
      ms(rawChecks),
      `${num((ROWS / rawChecks) * 1000)} rows/s`,
      '',
      '',
    ],
  ]);
  console.log(
    `\nDNS queries per verifying import: ${dnsQueries.map(num).join(', ')} (${DOMAINS.length} domains × 5 record types = ${num(DOMAINS.length * 5)})`,
  );
} finally {
  await herald?.stop();
  await admin.end();
  await db.close();
  await dns.stop();
}
