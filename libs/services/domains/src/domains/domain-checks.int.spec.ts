import { openSecret, type HeraldRuntime } from '@herald/core';
import { ProjectDeleted, type EventEnvelope } from '@herald/contracts';
import { Job, JobQueue } from '@herald/jobs';
import { EventContext, Outbox, projectDataHandler } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { DOMAINS } from '../consumer.js';
import { domainsSchema, domainsService } from '../domains.module.js';
import { DomainsSettings, resolveDkimEncryptionKey } from '../domains.settings.js';
import { DkimKeyGenerator } from '../keys/dkim-key-generator.js';
import { DomainsProjectCleanup } from '../projects/domains-project-cleanup.js';
import { DnsRecordChecker, type TxtResolver } from '../records/dns-record-checker.js';
import { CHECK_QUEUE, checkJobId, DomainChecks } from './domain-checks.js';
import { Domain } from './domain.entity.js';
import { DomainVerifier } from './domain-verifier.js';
import { DomainsService } from './domains.service.js';
import { DomainsStore } from './domains.store.js';

/**
 * The background check chain and the state machine against real PostgreSQL, with DNS answered from
 * a table (so a lookup can also time out). Links are run by hand, the way the job queue runs them,
 * so each test controls exactly which link runs when.
 */
describe('domain checks (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const KEY = 'an-encryption-key-of-at-least-32-characters';
  const settings = Object.assign(new DomainsSettings(), {
    DKIM_ENCRYPTION_KEY: KEY,
    DOMAIN_CHECK_INTERVAL_MS: 300_000,
    DOMAIN_RECHECK_VERIFIED_MS: 3_600_000,
  });
  /** name → TXT records, or the error code the lookup fails with. */
  const zone = new Map<string, string[][] | string>();
  const resolver: TxtResolver = {
    resolveTxt: (name) => {
      const answer = zone.get(name) ?? 'ENOTFOUND';
      return typeof answer === 'string'
        ? Promise.reject(Object.assign(new Error(answer), { code: answer }))
        : Promise.resolve(answer);
    },
  };
  let outbox: Outbox;
  let queue: JobQueue;
  let verifier: DomainVerifier;
  let checks: DomainChecks;
  let domains: DomainsService;
  let project = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(domainsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    outbox = new Outbox(DOMAINS, ds);
    queue = new JobQueue(DOMAINS, db.url, ds, { leaseMs: 30_000, pollIntervalMs: 1000, concurrency: 1 });
    verifier = new DomainVerifier(new DnsRecordChecker(resolver), outbox, settings);
    checks = new DomainChecks(ds, queue, verifier, settings, new DomainsStore());
    const runtime = { mode: 'distributed', internalJwtSecret: 'x'.repeat(32) } as HeraldRuntime;
    domains = new DomainsService(
      ds,
      outbox,
      settings,
      resolveDkimEncryptionKey(settings, runtime),
      new DkimKeyGenerator(),
      verifier,
      checks,
    );
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  beforeEach(() => zone.clear());

  /** A new domain in a project of its own. */
  async function newDomain() {
    const view = await domains.create(`prj_${++project}`, `mail${project}.example.test`);
    return {
      view,
      publish: () => view.records.filter((r) => r.required).forEach((r) => zone.set(r.name, [[r.value]])),
    };
  }
  /** The domain's check links still to run, oldest first. */
  const queuedLinks = (domainId: string) =>
    ds
      .getRepository(Job)
      .find({ where: { queue: CHECK_QUEUE, state: 'queued' }, order: { createdAt: 'ASC' } })
      .then((jobs) => jobs.filter((j) => j.payload.domainId === domainId));
  /** Runs a link as the queue does: the handler, then the row marked completed. */
  async function runLink(job: Job): Promise<void> {
    await checks.run({ job });
    await ds.getRepository(Job).update({ id: job.id }, { state: 'completed' });
  }
  async function runNext(domainId: string): Promise<Job> {
    const [link] = await queuedLinks(domainId);
    if (!link) throw new Error(`no queued check for ${domainId}`);
    await runLink(link);
    return link;
  }
  const domain = (id: string) => ds.getRepository(Domain).findOneByOrFail({ id });
  const events = async (domainId: string): Promise<EventEnvelope<Record<string, unknown>>[]> =>
    (
      await ds.query(`SELECT envelope FROM domains.outbox WHERE envelope->'payload'->>'domainId' = $1 ORDER BY id`, [
        domainId,
      ])
    ).map((r: { envelope: EventEnvelope<Record<string, unknown>> }) => r.envelope);

  it('creating a domain starts one check chain, its first link due after DOMAIN_CHECK_INTERVAL_MS', async () => {
    const before = Date.now();
    const { view } = await newDomain();
    const links = await queuedLinks(view.id);
    expect(links.map((l) => l.id)).toEqual([checkJobId(view.id, 0)]);
    expect(links[0]!.runAfter.getTime()).toBeGreaterThanOrEqual(before + 300_000 - 1000);
  });

  it('a check finding the required records verifies the domain, publishes domain.verified with the sealed key, and rechecks at the verified interval', async () => {
    const { view, publish } = await newDomain();
    publish();
    const before = Date.now();
    await runNext(view.id);
    const d = await domain(view.id);
    expect(d.status).toBe('verified');
    expect(d.checkSeq).toBe(1);
    const [event] = await events(view.id);
    expect(event).toMatchObject({
      type: 'domain.verified',
      projectId: d.projectId,
      payload: { domainId: d.id, domain: d.domain, status: 'verified', dkimSelector: d.dkimSelector },
    });
    expect(openSecret(event!.payload.dkimPrivateKeySealed as string, KEY)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const links = await queuedLinks(view.id);
    expect(links.map((l) => l.id)).toEqual([checkJobId(view.id, 1)]);
    expect(links[0]!.runAfter.getTime()).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
  });

  it('a link run a second time (its worker died after committing) does nothing: the chain does not fork', async () => {
    const { view, publish } = await newDomain();
    publish();
    const link = await runNext(view.id);
    await checks.run({ job: link });
    expect((await queuedLinks(view.id)).map((l) => l.id)).toEqual([checkJobId(view.id, 1)]);
    expect((await domain(view.id)).checkSeq).toBe(1);
    expect((await events(view.id)).map((e) => e.type)).toEqual(['domain.verified']);
  });

  it('each link removes the completed one before it, so a domain keeps about two job rows', async () => {
    const { view } = await newDomain();
    for (let i = 0; i < 4; i++) await runNext(view.id);
    const rows = (await ds.getRepository(Job).findBy({ queue: CHECK_QUEUE })).filter(
      (j) => j.payload.domainId === view.id,
    );
    expect(rows.map((r) => `${r.id}:${r.state}`).sort()).toEqual([
      `${checkJobId(view.id, 3)}:completed`,
      `${checkJobId(view.id, 4)}:queued`,
    ]);
  });

  it('a DNS failure (timeout, SERVFAIL) does not flip a verified domain to pending, and the chain goes on', async () => {
    const { view, publish } = await newDomain();
    publish();
    await runNext(view.id);
    for (const r of view.records) zone.set(r.name, r.purpose === 'dkim' ? 'ETIMEOUT' : 'ESERVFAIL');
    await runNext(view.id);
    const d = await domain(view.id);
    expect(d.status).toBe('verified');
    expect(d.checks?.find((c) => c.purpose === 'dkim')).toMatchObject({
      status: 'lookup_failed',
      problem: 'DNS lookup failed (ETIMEOUT)',
    });
    expect((await events(view.id)).map((e) => e.type)).toEqual(['domain.verified']);
    expect((await queuedLinks(view.id)).map((l) => l.id)).toEqual([checkJobId(view.id, 2)]);
  });

  it('a DNS failure does not verify a pending domain either', async () => {
    const { view, publish } = await newDomain();
    publish();
    zone.set(view.records.find((r) => r.purpose === 'dkim')!.name, 'ETIMEOUT');
    await runNext(view.id);
    expect((await domain(view.id)).status).toBe('pending');
  });

  it('a record that disappears flips a verified domain back to pending with domain.unverified naming it, and checks resume at the pending interval', async () => {
    const { view, publish } = await newDomain();
    publish();
    await runNext(view.id);
    zone.delete(view.records.find((r) => r.purpose === 'dkim')!.name);
    const before = Date.now();
    await runNext(view.id);
    expect((await domain(view.id)).status).toBe('pending');
    expect((await events(view.id)).map((e) => [e.type, e.payload.status, e.payload.reason])).toEqual([
      ['domain.verified', 'verified', undefined],
      ['domain.unverified', 'pending', 'dkim record missing'],
    ]);
    const [next] = await queuedLinks(view.id);
    expect(next!.runAfter.getTime()).toBeLessThan(before + 3_600_000 - 1000);
  });

  it('a chain whose last link failed for good is restarted at boot; two replicas restarting it at once leave one live chain', async () => {
    const { view, publish } = await newDomain();
    await ds.getRepository(Job).update({ id: checkJobId(view.id, 0) }, { state: 'failed' });
    const replicaB = new DomainChecks(ds, queue, verifier, settings, new DomainsStore());
    await Promise.all([checks.restartBrokenChains(), replicaB.restartBrokenChains()]);
    const restarted = await queuedLinks(view.id);
    expect(restarted.length).toBeGreaterThanOrEqual(1);
    publish();
    for (const link of restarted) await runLink(link);
    // whatever was enqueued, exactly one link acted: one check, one event, one successor
    expect((await events(view.id)).map((e) => e.type)).toEqual(['domain.verified']);
    const live = await queuedLinks(view.id);
    expect(live).toHaveLength(1);
    expect(live[0]!.id).toBe(checkJobId(view.id, (await domain(view.id)).checkSeq));
    expect(await checks.restartBrokenChains()).toBe(0);
  });

  it('removing a verified domain publishes domain.unverified (reason removed) and drops its queued checks', async () => {
    const { view, publish } = await newDomain();
    publish();
    await runNext(view.id);
    await domains.remove(view.projectId, view.id);
    expect(await ds.getRepository(Domain).existsBy({ id: view.id })).toBe(false);
    expect(await queuedLinks(view.id)).toEqual([]);
    expect((await events(view.id)).map((e) => [e.type, e.payload.reason])).toEqual([
      ['domain.verified', undefined],
      ['domain.unverified', 'removed'],
    ]);
  });

  it('project.deleted removes the project domains and their checks, publishing domain.unverified for the verified ones only', async () => {
    const verified = await newDomain();
    verified.publish();
    await runNext(verified.view.id);
    const projectId = verified.view.projectId;
    const pending = await domains.create(projectId, 'other.example.test');
    const other = await newDomain();
    const event = ProjectDeleted.create({ projectId, source: 'gateway', payload: { requestedBy: 'usr_1' } });
    // the project-data consumer the runtime mounts from the domains definition, its hook resolved as Nest would
    const Handler = projectDataHandler(DOMAINS, domainsService.projectData);
    const handler = new Handler({ get: () => new DomainsProjectCleanup(outbox, checks) }) as {
      onDeleted(e: EventEnvelope, ctx: EventContext): Promise<void>;
    };
    await ds.transaction((m) => handler.onDeleted(event, new EventContext(event, m, DOMAINS, 1)));
    expect(await ds.getRepository(Domain).findBy({ projectId })).toEqual([]);
    expect(await queuedLinks(verified.view.id)).toEqual([]);
    expect(await queuedLinks(pending.id)).toEqual([]);
    expect((await events(verified.view.id)).map((e) => [e.type, e.payload.reason, e.causationId])).toEqual([
      ['domain.verified', undefined, undefined],
      ['domain.unverified', 'project deleted', event.eventId],
    ]);
    expect(await events(pending.id)).toEqual([]);
    expect(await ds.getRepository(Domain).existsBy({ id: other.view.id })).toBe(true);
  });
});
