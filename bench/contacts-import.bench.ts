/**
 * CSV import time: `npm run bench -- contacts-import`.
 * Standalone mode; a generated CSV of 50 000 rows (`email,first_name,plan,age,signup_date,vip`,
 * 100 bytes a row, ~5 MB — under the 5 MiB limit) uploaded with `POST /contacts/import`
 * (multipart) into an empty project, timed from the start of the upload to `status: completed`
 * (polled every 100 ms). Then the same file again with every `plan` changed (50 000 updates of
 * existing contacts). Target: < 10 s for the first.
 *
 * Beside it, straight through `pg`: the same 50 000 rows inserted with `INSERT … SELECT * FROM
 * unnest(…)` in batches of 1 000 (one transaction each) into a scratch table with the CSV's
 * columns, and into a scratch copy of contacts.contacts (`LIKE … INCLUDING ALL`: the same
 * indexes, trigram GIN included) as `id, project_id, email, data jsonb`.
 *
 * Also shown: CPU during each import and while the outbox drains afterwards (the contact.* events
 * go through the relay to in-process consumers): whole machine, Herald's process and the
 * PostgreSQL backends of the bench database, in cores.
 */
import os from 'node:os';
import pg from 'pg';
import { accountWithProject } from '@herald/testing';
import {
  backendPids,
  benchDatabase,
  cpuMeter,
  machineBusy,
  ms,
  num,
  printTable,
  sleep,
  startStandalone,
  waitOutboxDrained,
  type CpuUse,
} from './support.js';
import { target } from './targets.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const ROW_BYTES = 100;
const BATCH = 1000;

const FIRST = [
  'Alice',
  'Bob',
  'Carol',
  'Dave',
  'Erin',
  'Frank',
  'Grace',
  'Heidi',
  'Ivan',
  'Judy',
  'Mallory',
  'Niaj',
  'Olivia',
  'Peggy',
];
const DOMAINS = ['example.com', 'gmail.com', 'outlook.com', 'acme.io', 'company.test'];
const PLANS = ['free', 'starter', 'pro', 'enterprise'];

interface CsvRow {
  email: string;
  firstName: string;
  plan: string;
  age: number;
  signupDate: string;
  vip: boolean;
}

/** 50 000 distinct rows, each padded (in the email's local part) to ROW_BYTES with its newline (exactly, for planShift 0). */
function makeRows(planShift: number): CsvRow[] {
  const out: CsvRow[] = [];
  for (let i = 0; i < ROWS; i++) {
    const firstName = FIRST[i % FIRST.length]!;
    const r = {
      email: '',
      firstName,
      plan: PLANS[(i + planShift) % PLANS.length]!,
      age: 18 + (i % 60),
      signupDate: new Date(Date.UTC(2020, 0, 1) + (i % 1800) * 86_400_000).toISOString().slice(0, 10),
      vip: i % 17 === 0,
    };
    const local = `${firstName.toLowerCase()}.${String(i).padStart(6, '0')}`;
    const domain = DOMAINS[i % DOMAINS.length]!;
    // the padding is sized for the first file's plan, so a row keeps its email when the plan changes
    const rest = `,${r.firstName},${PLANS[i % PLANS.length]},${r.age},${r.signupDate},${r.vip}\n`.length;
    const pad = ROW_BYTES - rest - `${local}.@${domain}`.length;
    r.email = `${local}.${'customeraccountreference'.repeat(4).slice(0, Math.max(1, pad))}@${domain}`;
    out.push(r);
  }
  return out;
}

const toCsv = (rows: CsvRow[]) =>
  `email,first_name,plan,age,signup_date,vip\n${rows.map((r) => `${r.email},${r.firstName},${r.plan},${r.age},${r.signupDate},${r.vip}`).join('\n')}\n`;

interface ImportTiming {
  uploadMs: number;
  totalMs: number;
  status: Record<string, unknown>;
}

async function importCsv(baseUrl: string, secretKey: string, csv: string): Promise<ImportTiming> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  const started = performance.now();
  const res = await fetch(`${baseUrl}/contacts/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}` },
    body: form,
  });
  const uploadMs = performance.now() - started;
  if (res.status !== 202) throw new Error(`POST /contacts/import answered ${res.status}: ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  for (;;) {
    const r = await fetch(`${baseUrl}/contacts/import/${jobId}`, { headers: { authorization: `Bearer ${secretKey}` } });
    const status = (await r.json()) as Record<string, unknown>;
    if (status.status === 'completed' || status.status === 'failed')
      return { uploadMs, totalMs: performance.now() - started, status };
    if (performance.now() - started > 300_000)
      throw new Error(`import ${jobId} not completed after 300 s: ${JSON.stringify(status)}`);
    await sleep(100);
  }
}

const db = await benchDatabase('import');
const admin = new pg.Pool({ connectionString: db.url, max: 2 });
let herald: Awaited<ReturnType<typeof startStandalone>> | undefined;
try {
  const idleBusy = await machineBusy(2000);
  herald = await startStandalone(db);
  const project = await accountWithProject(herald.url);
  const rows = makeRows(0);
  const csv = toCsv(rows);
  const csvBytes = Buffer.byteLength(csv);
  if (csvBytes > 5 * 1024 * 1024) throw new Error(`generated CSV is ${csvBytes} bytes, over the 5 MiB limit`);

  const pgPids = backendPids(admin, db.url);
  const measured = async <T>(fn: () => Promise<T>): Promise<[T, CpuUse]> => {
    const meter = await cpuMeter(pgPids);
    const result = await fn();
    return [result, await meter()];
  };
  const [first, firstCpu] = await measured(() => importCsv(herald!.url, project.secretKey, csv));
  const [firstOutbox, firstDrainCpu] = await measured(() => waitOutboxDrained(admin, 180_000));
  const [second, secondCpu] = await measured(() => importCsv(herald!.url, project.secretKey, toCsv(makeRows(1))));
  const [secondOutbox, secondDrainCpu] = await measured(() => waitOutboxDrained(admin, 180_000));
  const stored = Number(
    (await admin.query(`SELECT count(*) AS n FROM contacts.contacts WHERE project_id = $1`, [project.projectId]))
      .rows[0].n,
  );
  await herald.stop();
  herald = undefined;

  // ---- the same rows straight through pg ---------------------------------------------------
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query(
    `CREATE TABLE public.bench_import_rows (email varchar(320) NOT NULL, first_name text, plan text, age int, signup_date date, vip boolean)`,
  );
  await c.query(`CREATE TABLE public.bench_import_contacts (LIKE contacts.contacts INCLUDING ALL)`);
  const batches = (fn: (b: CsvRow[]) => Promise<unknown>) => async () => {
    const t = performance.now();
    for (let i = 0; i < rows.length; i += BATCH) {
      await c.query('BEGIN');
      await fn(rows.slice(i, i + BATCH));
      await c.query('COMMIT');
    }
    return performance.now() - t;
  };
  const rawPlain = await batches((b) =>
    c.query(
      `INSERT INTO public.bench_import_rows SELECT * FROM unnest($1::varchar[], $2::text[], $3::text[], $4::int[], $5::date[], $6::boolean[])`,
      [
        b.map((r) => r.email),
        b.map((r) => r.firstName),
        b.map((r) => r.plan),
        b.map((r) => r.age),
        b.map((r) => r.signupDate),
        b.map((r) => r.vip),
      ],
    ),
  )();
  let n = 0;
  const rawContacts = await batches((b) =>
    c.query(
      `INSERT INTO public.bench_import_contacts (id, project_id, email, subscribed, data)
       SELECT id, $1, email, true, data FROM unnest($2::varchar[], $3::varchar[], $4::jsonb[]) AS x(id, email, data)
       ON CONFLICT (project_id, email) DO NOTHING RETURNING *`,
      [
        project.projectId,
        b.map(() => `cnt_${String(n++).padStart(26, '0')}`),
        b.map((r) => r.email),
        b.map((r) =>
          JSON.stringify({ first_name: r.firstName, plan: r.plan, age: r.age, signup_date: r.signupDate, vip: r.vip }),
        ),
      ],
    ),
  )();
  await c.end();

  const rate = (t: number) => `${num((ROWS / t) * 1000)} rows/s`;
  const counts = (s: Record<string, unknown>) =>
    `${s.status}: ${num(Number(s.imported))} imported, ${num(Number(s.updated))} updated, ${num(Number(s.skipped))} skipped`;
  const drained = (o: { pendingAtStart: number; drainMs: number }) =>
    `${num(o.pendingAtStart)} → ${o.drainMs < 0 ? 'not drained in 180 s' : ms(o.drainMs)}`;
  const cpu = (c: CpuUse) => `${Math.round(c.machine)}% / ${c.children.toFixed(2)} / ${c.pg.toFixed(2)}`;
  console.log(
    `\nCSV import, standalone mode: ${num(ROWS)} rows (email,first_name,plan,age,signup_date,vip), ${(csvBytes / 1e6).toFixed(2)} MB; status polled every 100 ms;` +
      ` ${os.cpus().length} cores, ${Math.round(idleBusy)}% busy with other work before the start; Node ${process.version}`,
  );
  printTable([
    [
      'contacts-import',
      'upload → 202',
      'upload → completed',
      'rate',
      'result',
      'cpu: machine / herald / pg',
      'outbox after (events → drained)',
      'cpu while draining',
    ],
    [
      'POST /contacts/import, new contacts',
      ms(first.uploadMs),
      ms(first.totalMs),
      rate(first.totalMs),
      counts(first.status),
      cpu(firstCpu),
      drained(firstOutbox),
      firstOutbox.drainMs >= 1000 ? cpu(firstDrainCpu) : '—',
    ],
    [
      'same file, every plan changed',
      ms(second.uploadMs),
      ms(second.totalMs),
      rate(second.totalMs),
      counts(second.status),
      cpu(secondCpu),
      drained(secondOutbox),
      secondOutbox.drainMs >= 1000 ? cpu(secondDrainCpu) : '—',
    ],
    ['raw pg: unnest batches of 1000 → CSV-column table', '', ms(rawPlain), rate(rawPlain), '', '', '', ''],
    ['raw pg: unnest batches of 1000 → copy of contacts', '', ms(rawContacts), rate(rawContacts), '', '', '', ''],
  ]);
  console.log(
    `\ncontacts stored: ${num(stored)}; target < 10 s: ${target({
      target: `a ${num(ROWS)}-row CSV imported in < 10 s (issue 20)`,
      measured: `${ms(first.totalMs)}, ${first.status.status}`,
      met: first.totalMs < 10_000 && first.status.status === 'completed',
    })}`,
  );
} finally {
  await herald?.stop();
  await admin.end();
  await db.close();
}
