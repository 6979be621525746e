import { createPrivateKey, createPublicKey } from 'node:crypto';
import pg from 'pg';
import { dkimEncryptionKey, openSecret } from '@herald/core';
import {
  e2eMode,
  eventually,
  startDnsServer,
  startTopology,
  TOPOLOGY_DKIM_ENCRYPTION_KEY,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { fieldsOf, newProject, type ErrorBody, type ProjectApi } from './contacts-helpers.js';

/**
 * Sender domains through the public API, in the run's mode (HERALD_E2E_MODE: one standalone process,
 * or every service its own process behind the gateway), with DNS lookups going to a loopback DNS
 * server (spec: Domains endpoints, Domain states, Limits "domain verification"). Background checks
 * run every second here, for pending and verified domains alike.
 */

interface RecordBody {
  type: 'TXT';
  name: string;
  value: string;
  purpose: 'ownership' | 'dkim' | 'spf' | 'dmarc';
  required: boolean;
  status?: 'found' | 'missing' | 'wrong_value' | 'lookup_failed';
  found?: string[];
  problem?: string;
}

interface DomainBody {
  id: string;
  projectId: string;
  domain: string;
  status: 'pending' | 'verified';
  dkimSelector: string;
  records: RecordBody[];
  lastCheckedAt: string | null;
  verifiedAt: string | null;
}

interface DomainEvent {
  topic: string;
  correlationId?: string;
  payload: {
    domainId: string;
    domain: string;
    status: string;
    dkimSelector?: string;
    dkimPrivateKeySealed?: string;
    reason?: string;
  };
}

/** Reads `domains.outbox`: the events the domains service committed with its state changes. */
class DomainsOutbox {
  private readonly pool: pg.Pool;
  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }
  async events(domainId: string): Promise<DomainEvent[]> {
    const { rows } = await this.pool.query<{ topic: string; envelope: DomainEvent & { correlationId?: string } }>(
      `SELECT topic, envelope FROM domains.outbox WHERE envelope->'payload'->>'domainId' = $1 ORDER BY id`,
      [domainId],
    );
    return rows.map((r) => ({ topic: r.topic, correlationId: r.envelope.correlationId, payload: r.envelope.payload }));
  }
  end(): Promise<void> {
    return this.pool.end();
  }
}

const INTERNAL_JWT_SECRET = 'domains-e2e-internal-secret-0123456789abcdef';

describe(`sender domains through the public API (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let herald: Topology;
  let outbox: DomainsOutbox;
  let owner: string;
  let n = 0;
  const project = () => newProject(herald.url, owner);
  /** A domain name no other test uses. */
  const fresh = () => `mail${++n}.example.test`;

  const record = (d: DomainBody, purpose: RecordBody['purpose']) => d.records.find((r) => r.purpose === purpose)!;
  const publish = (d: DomainBody, ...purposes: RecordBody['purpose'][]) =>
    purposes.forEach((p) => dns.set(record(d, p).name, 'TXT', record(d, p).value));
  const statuses = (d: DomainBody) => Object.fromEntries(d.records.map((r) => [r.purpose, r.status]));

  async function addDomain(api: ProjectApi, domain = fresh()): Promise<DomainBody> {
    const res = await api.post<DomainBody>('/domains', { domain });
    if (res.status !== 201) throw new Error(`POST /domains answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }
  /** Polls GET /domains/:id (which never checks DNS itself) until the background check set `status`. */
  const backgroundCheckSets = (api: ProjectApi, id: string, status: DomainBody['status']) =>
    eventually(
      async () => {
        const res = await api.get<DomainBody>(`/domains/${id}`);
        return res.body.status === status ? res.body : undefined;
      },
      { timeoutMs: 30_000, message: `domain ${id} never became ${status}` },
    );

  const env = (dnsAddress: string) => ({
    RATE_LIMIT_PER_MINUTE: '100000',
    INTERNAL_JWT_SECRET,
    DNS_SERVERS: dnsAddress,
    DOMAIN_CHECK_INTERVAL_MS: '1000',
    DOMAIN_RECHECK_VERIFIED_MS: '1000',
    SPF_RECORD: 'v=spf1 include:_spf.herald.test ~all',
  });

  beforeAll(async () => {
    dns = await startDnsServer();
    // exclusive: the last test stops and starts the process hosting domains
    herald = await startTopology({ exclusive: true, env: env(dns.address) });
    outbox = new DomainsOutbox(herald.db.url);
    owner = (await newProject(herald.url)).cookie;
  }, 600_000); // a distributed topology of its own: 8 processes spawned at once on a busy machine

  afterAll(async () => {
    await outbox?.end();
    await herald?.stop();
    await dns?.stop();
  }, 60_000);

  it('POST /domains answers 201 with a pending domain and its four TXT records: ownership and DKIM required, SPF and DMARC recommended', async () => {
    const api = await project();
    const domain = fresh();
    const res = await api.post<DomainBody>('/domains', { domain });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      domain,
      status: 'pending',
      projectId: api.projectId,
      verifiedAt: null,
      lastCheckedAt: null,
    });
    expect(res.body.id).toMatch(/^dom_/);
    expect(res.body.dkimSelector).toMatch(/^herald[a-z0-9]+$/);
    const [ownership, dkim, spf, dmarc] = res.body.records;
    expect(ownership).toEqual({
      type: 'TXT',
      name: `_herald.${domain}`,
      value: expect.stringMatching(/^herald-verification=[0-9a-f]{32}$/),
      purpose: 'ownership',
      required: true,
    });
    expect(dkim).toEqual({
      type: 'TXT',
      name: `${res.body.dkimSelector}._domainkey.${domain}`,
      value: expect.stringMatching(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/),
      purpose: 'dkim',
      required: true,
    });
    expect(spf).toEqual({
      type: 'TXT',
      name: domain,
      value: 'v=spf1 include:_spf.herald.test ~all',
      purpose: 'spf',
      required: false,
    });
    expect(dmarc).toEqual({
      type: 'TXT',
      name: `_dmarc.${domain}`,
      value: 'v=DMARC1; p=none;',
      purpose: 'dmarc',
      required: false,
    });
    expect(res.body.records).toHaveLength(4);
  });

  it('verification: missing records, then a wrong DKIM value shown with what was found, then the background job (not the endpoint) verifies, and removing DKIM unverifies', async () => {
    const api = await project();
    const created = await addDomain(api);

    // nothing published yet
    let res = await api.get<DomainBody>(`/domains/${created.id}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    expect(statuses(res.body)).toEqual({ ownership: 'missing', dkim: 'missing', spf: 'missing', dmarc: 'missing' });

    // a DKIM record with another key, next to the right ownership record
    publish(created, 'ownership');
    const wrongDkim = 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrongkey';
    dns.set(record(created, 'dkim').name, 'TXT', wrongDkim);
    res = await api.get<DomainBody>(`/domains/${created.id}/verify`);
    expect(res.body.status).toBe('pending');
    expect(record(res.body, 'ownership').status).toBe('found');
    expect(record(res.body, 'dkim')).toMatchObject({
      status: 'wrong_value',
      found: [wrongDkim],
      problem: expect.stringMatching(/public key/),
    });

    // the right records (the DKIM one is longer than 255 bytes: DNS serves it in chunks); no call to verify
    publish(created, 'dkim', 'dmarc');
    dns.set(created.domain, 'TXT', ['google-site-verification=abc', 'v=spf1 include:_spf.herald.test mx -all']);
    const verified = await backgroundCheckSets(api, created.id, 'verified');
    expect(statuses(verified)).toEqual({ ownership: 'found', dkim: 'found', spf: 'found', dmarc: 'found' });
    expect(verified.verifiedAt).not.toBeNull();

    const [event] = await outbox.events(created.id);
    expect(event).toMatchObject({
      topic: 'domain.verified',
      payload: { domainId: created.id, domain: created.domain, status: 'verified', dkimSelector: created.dkimSelector },
    });
    expect(event!.correlationId).toBeUndefined(); // no request caused it: the background check did

    // DKIM record removed: a forced check puts the domain back to pending
    dns.remove(record(created, 'dkim').name, 'TXT');
    res = await api.get<DomainBody>(`/domains/${created.id}/verify`);
    expect(res.body.status).toBe('pending');
    expect(record(res.body, 'dkim').status).toBe('missing');
    expect(record(res.body, 'ownership').status).toBe('found');
    expect((await outbox.events(created.id)).map((e) => [e.topic, e.payload.status, e.payload.reason])).toEqual([
      ['domain.verified', 'verified', undefined],
      ['domain.unverified', 'pending', 'dkim record missing'],
    ]);
  });

  it('domain.verified carries the DKIM private key sealed, which opens to the PEM matching the published public key', async () => {
    const api = await project();
    const created = await addDomain(api);
    publish(created, 'ownership', 'dkim');
    expect((await api.get<DomainBody>(`/domains/${created.id}/verify`)).body.status).toBe('verified');
    const [event] = await outbox.events(created.id);
    expect(event!.topic).toBe('domain.verified');
    const sealed = event!.payload.dkimPrivateKeySealed!;
    expect(sealed).not.toContain('PRIVATE KEY');
    // standalone without DKIM_ENCRYPTION_KEY: sealed with the key derived from the internal secret;
    // distributed: with the DKIM_ENCRYPTION_KEY the domains and sending processes share
    const configured = herald.mode === 'distributed' ? TOPOLOGY_DKIM_ENCRYPTION_KEY : undefined;
    const pem = openSecret(sealed, dkimEncryptionKey(configured, INTERNAL_JWT_SECRET));
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const publicKey = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).toString('base64');
    expect(record(created, 'dkim').value).toBe(`v=DKIM1; k=rsa; p=${publicKey}`);
  });

  it('the background check flips a verified domain back to pending when a required record disappears', async () => {
    const api = await project();
    const created = await addDomain(api);
    publish(created, 'ownership', 'dkim');
    await backgroundCheckSets(api, created.id, 'verified');
    dns.remove(record(created, 'ownership').name);
    const pending = await backgroundCheckSets(api, created.id, 'pending');
    expect(record(pending, 'ownership').status).toBe('missing');
    expect((await outbox.events(created.id)).map((e) => [e.topic, e.payload.reason])).toEqual([
      ['domain.verified', undefined],
      ['domain.unverified', 'ownership record missing'],
    ]);
  });

  it('GET /domains/project/:projectId lists the project domains, verified and pending, with their records', async () => {
    const api = await project();
    const a = await addDomain(api);
    const b = await addDomain(api);
    publish(a, 'ownership', 'dkim');
    await api.get(`/domains/${a.id}/verify`);
    const res = await api.get<{ domains: DomainBody[] }>(`/domains/project/${api.projectId}`);
    expect(res.status).toBe(200);
    expect(res.body.domains.map((d) => [d.id, d.status, d.records.length])).toEqual([
      [a.id, 'verified', 4],
      [b.id, 'pending', 4],
    ]);
    expect((await api.get<DomainBody>(`/domains/${b.id}`)).body).toMatchObject({
      id: b.id,
      domain: b.domain,
      records: b.records,
    });
  });

  it('another project can neither list (403) nor read, verify or delete (404) a domain', async () => {
    const api = await project();
    const other = await project();
    const created = await addDomain(api);
    expect((await other.get(`/domains/project/${api.projectId}`)).status).toBe(403);
    expect((await other.get(`/domains/${created.id}`)).status).toBe(404);
    expect((await other.get(`/domains/${created.id}/verify`)).status).toBe(404);
    expect((await other.delete(`/domains/${created.id}`)).status).toBe(404);
    expect((await other.get<{ domains: DomainBody[] }>(`/domains/project/${other.projectId}`)).body.domains).toEqual(
      [],
    );
    expect((await api.get(`/domains/${created.id}`)).status).toBe(200);
  });

  it.each([
    ['upper case', 'Mail.Example.com'],
    ['no top-level domain', 'localhost'],
    ['a space', 'mail example.com'],
    ['an underscore', 'mail_x.example.com'],
    ['a trailing dot', 'example.com.'],
    ['an empty label', 'mail..example.com'],
    ['a label starting with a hyphen', '-mail.example.com'],
    ['an e-mail address', 'ada@example.com'],
    ['a URL', 'https://example.com'],
    ['a label of 64 characters', `${'a'.repeat(64)}.example.com`],
    ['not a string', 42],
    ['missing', undefined],
  ])('POST /domains answers 422 for a domain with %s', async (_rule, domain) => {
    const api = await project();
    const res = await api.post<ErrorBody>('/domains', domain === undefined ? {} : { domain });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(res.body)).toContain('domain');
  });

  it('POST /domains answers 409 when the project already has the domain; another project may add it', async () => {
    const api = await project();
    const domain = fresh();
    await addDomain(api, domain);
    const again = await api.post<ErrorBody>('/domains', { domain });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('DOMAIN_ALREADY_EXISTS');
    expect((await (await project()).post('/domains', { domain })).status).toBe(201);
  });

  it('DELETE /domains/:id removes the domain; a verified one publishes domain.unverified with reason removed', async () => {
    const api = await project();
    const created = await addDomain(api);
    publish(created, 'ownership', 'dkim');
    await api.get(`/domains/${created.id}/verify`);
    expect((await api.delete(`/domains/${created.id}`)).status).toBe(200);
    expect((await api.get(`/domains/${created.id}`)).status).toBe(404);
    expect((await api.delete(`/domains/${created.id}`)).status).toBe(404);
    expect((await outbox.events(created.id)).map((e) => [e.topic, e.payload.reason])).toEqual([
      ['domain.verified', undefined],
      ['domain.unverified', 'removed'],
    ]);
  });

  it('a project reset removes its domains, publishing domain.unverified for the verified ones', async () => {
    const api = await project();
    const verified = await addDomain(api);
    const pending = await addDomain(api);
    publish(verified, 'ownership', 'dkim');
    await api.get(`/domains/${verified.id}/verify`);
    const reset = await fetch(`${herald.url}/users/@me/projects/${api.projectId}/reset`, {
      method: 'POST',
      headers: { cookie: api.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(reset.status).toBe(202);
    await eventually(
      async () =>
        (await api.get<{ domains: DomainBody[] }>(`/domains/project/${api.projectId}`)).body.domains.length === 0,
      { message: 'reset did not reach domains' },
    );
    expect((await outbox.events(verified.id)).map((e) => [e.topic, e.payload.reason])).toEqual([
      ['domain.verified', undefined],
      ['domain.unverified', 'project reset'],
    ]);
    expect(await outbox.events(pending.id)).toEqual([]);
  });

  // stops the process hosting domains (standalone: all of Herald): keep last
  it('the background check survives a restart: records published while the domains service is down verify the domain after it starts', async () => {
    const api = await project();
    const created = await addDomain(api);
    const domains = herald.processOf('domains');
    await domains.stop();
    publish(created, 'ownership', 'dkim');
    await domains.start({ timeoutMs: 300_000 });
    await backgroundCheckSets(api, created.id, 'verified');
    expect((await outbox.events(created.id)).map((e) => e.topic)).toEqual(['domain.verified']);
  }, 420_000); // a process start on a busy machine: up to 5 min
});
