import { signPrincipal } from '@herald/auth';
import { PRINCIPAL_HEADER } from '@herald/contracts';
import {
  accountWithProject,
  bearer,
  createProject,
  createTestDatabase,
  distributedEnv,
  freePort,
  migrateApps,
  principalHeaders,
  ServiceProcess,
  signUp,
  startKafka,
  startRedis,
  TEST_INTERNAL_SECRET,
  type KafkaBroker,
  type TestDatabase,
} from '@herald/testing';

const RATE_LIMIT = 40;

/**
 * Distributed mode: two gateway replicas (sharing Redis) in front of the contacts service, each its
 * own process, over Kafka and one PostgreSQL. Every call below goes through a gateway unless it
 * says it reaches the service directly.
 */
describe('gateway: keys, sessions, roles and rate limits in distributed mode', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let redis: { url: string; stop(): Promise<void> };
  let contacts: ServiceProcess;
  let gw1: ServiceProcess;
  let gw2: ServiceProcess;

  beforeAll(async () => {
    [db, kafka, redis] = await Promise.all([createTestDatabase(), startKafka(), startRedis()]);
    const env = distributedEnv(db.url, kafka.brokers);
    await migrateApps(['gateway', 'contacts'], env);
    contacts = new ServiceProcess('contacts', await freePort(), env);
    await contacts.start();
    const nowhere = 'http://127.0.0.1:9';
    const gatewayEnv = {
      ...env,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      CONTACTS_URL: contacts.url,
      SENDING_URL: nowhere,
      CAMPAIGNS_URL: nowhere,
      SEGMENTS_URL: nowhere,
      WORKFLOWS_URL: nowhere,
      DOMAINS_URL: nowhere,
      ANALYTICS_URL: nowhere,
      WEBHOOKS_URL: nowhere,
    };
    gw1 = new ServiceProcess('gateway', await freePort(), gatewayEnv);
    gw2 = new ServiceProcess('gateway', await freePort(), gatewayEnv);
    await Promise.all([gw1.start(), gw2.start()]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gw1?.stop(), gw2?.stop(), contacts?.stop()]);
    await kafka?.stop();
    await redis?.stop();
    await db?.drop();
  }, 60_000);

  const track = (gw: ServiceProcess, key: string, event = 'signup') =>
    fetch(`${gw.url}/v1/track`, {
      method: 'POST',
      headers: bearer(key),
      body: JSON.stringify({ email: 'person@example.com', event }),
    });
  const stats = (gw: ServiceProcess, headers: Record<string, string>) => fetch(`${gw.url}/events/stats`, { headers });
  const total = async (gw: ServiceProcess, headers: Record<string, string>) =>
    ((await (await stats(gw, headers)).json()) as { total: number }).total;

  it('lets each secret key reach only its own project', async () => {
    const owner = await accountWithProject(gw1.url);
    const second = await createProject(gw1.url, owner.cookie, 'Second');
    expect((await track(gw1, owner.secretKey)).status).toBe(200);
    expect((await track(gw2, second.secretKey, 'a')).status).toBe(200);
    expect((await track(gw1, second.secretKey, 'b')).status).toBe(200);
    expect(await total(gw2, bearer(owner.secretKey))).toBe(1);
    expect(await total(gw1, bearer(second.secretKey))).toBe(2);
  });

  it('accepts a public key on /v1/track and refuses it with 403 everywhere else', async () => {
    const p = await accountWithProject(gw1.url);
    expect((await track(gw1, p.publicKey)).status).toBe(200);
    const res = await stats(gw1, bearer(p.publicKey));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
  });

  it('answers 401 for a missing, malformed or unknown key', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      bearer(`sk_${'0'.repeat(48)}`),
      { authorization: 'Basic abc' },
    ]) {
      const res = await stats(gw1, headers);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { success: boolean }).success).toBe(false);
    }
  });

  it('stops the old keys at once when the keys are rotated, on every replica', async () => {
    const p = await accountWithProject(gw1.url);
    const res = await fetch(`${gw2.url}/users/@me/projects/${p.projectId}/regenerate-keys`, {
      method: 'POST',
      headers: { cookie: p.cookie },
    });
    expect(res.status).toBe(200);
    const rotated = (await res.json()) as { secretKey: string; publicKey: string };
    expect(rotated.secretKey).toMatch(/^sk_[0-9a-f]{48}$/);
    expect(rotated.publicKey).toMatch(/^pk_[0-9a-f]{48}$/);
    for (const gw of [gw1, gw2]) {
      expect((await stats(gw, bearer(p.secretKey))).status).toBe(401);
      expect((await track(gw, p.publicKey)).status).toBe(401);
      expect((await stats(gw, bearer(rotated.secretKey))).status).toBe(200);
    }
  });

  it('lets a MEMBER use the project with a session but not rotate its keys; non-members are refused', async () => {
    const owner = await accountWithProject(gw1.url);
    const other = await createProject(gw1.url, owner.cookie, 'Not shared');
    const member = await signUp(gw1.url, `member-${Date.now()}@example.com`);
    const me = (await (await fetch(`${gw1.url}/users/@me`, { headers: { cookie: member.cookie } })).json()) as {
      email: string;
    };
    const add = await fetch(`${gw1.url}/projects/${owner.projectId}/members`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ email: me.email, role: 'MEMBER' }),
    });
    expect(add.status).toBe(201);

    const rotate = await fetch(`${gw1.url}/users/@me/projects/${owner.projectId}/regenerate-keys`, {
      method: 'POST',
      headers: { cookie: member.cookie },
    });
    expect(rotate.status).toBe(403);
    expect((await stats(gw1, bearer(owner.secretKey))).status).toBe(200); // keys unchanged

    expect((await stats(gw2, { cookie: member.cookie, 'x-project-id': owner.projectId })).status).toBe(200);
    expect((await stats(gw2, { cookie: member.cookie, 'x-project-id': other.projectId })).status).toBe(403);
    const unnamed = await stats(gw2, { cookie: member.cookie });
    expect(unnamed.status).toBe(400);
    expect(((await unnamed.json()) as { error: { code: string } }).error.code).toBe('PROJECT_REQUIRED');

    const projects = (await (
      await fetch(`${gw1.url}/users/@me/projects`, { headers: { cookie: member.cookie } })
    ).json()) as { id: string; role: string; keys: { secret: { prefix: string } } }[];
    expect(projects).toEqual([
      expect.objectContaining({
        id: owner.projectId,
        role: 'MEMBER',
        keys: expect.objectContaining({
          secret: { prefix: owner.secretKey.slice(0, 10), createdAt: expect.any(String) },
        }),
      }),
    ]);
    expect(JSON.stringify(projects)).not.toContain(owner.secretKey);
  });

  it('answers 403 PROJECT_DISABLED for the keys of a disabled project', async () => {
    const p = await accountWithProject(gw1.url);
    const patch = (disabled: boolean) =>
      fetch(`${gw1.url}/users/@me/projects/${p.projectId}`, {
        method: 'PATCH',
        headers: { cookie: p.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ disabled }),
      });
    expect((await patch(true)).status).toBe(200);
    const res = await stats(gw1, bearer(p.secretKey));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('PROJECT_DISABLED');
    expect((await patch(false)).status).toBe(200);
    expect((await stats(gw1, bearer(p.secretKey))).status).toBe(200);
  });

  it('has the service refuse a request that reaches it directly without a valid principal', async () => {
    const direct = (headers: Record<string, string>) => fetch(`${contacts.url}/events/stats`, { headers });
    expect((await direct({})).status).toBe(401);
    expect((await direct(bearer(`sk_${'1'.repeat(48)}`))).status).toBe(401); // API keys mean nothing to a service
    const forged = signPrincipal(
      { kind: 'api-key', projectId: 'prj_victim', keyType: 'secret' },
      'not-the-internal-secret-0123456789abcdef',
    );
    expect((await direct({ [PRINCIPAL_HEADER]: forged })).status).toBe(401);
    const expired = signPrincipal(
      { kind: 'api-key', projectId: 'prj_victim', keyType: 'secret' },
      TEST_INTERNAL_SECRET,
      -10,
    );
    expect((await direct({ [PRINCIPAL_HEADER]: expired })).status).toBe(401);
    expect((await direct(principalHeaders('prj_victim'))).status).toBe(200); // the control: a gateway-signed principal
  });

  it(`holds one project to ${RATE_LIMIT} requests a minute across both replicas, with Retry-After, and leaves others alone`, async () => {
    const busy = await accountWithProject(gw1.url);
    const calm = await createProject(gw1.url, busy.cookie, 'Calm');
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < RATE_LIMIT + 5; i++) {
      const res = await stats(i % 2 === 0 ? gw1 : gw2, bearer(busy.secretKey));
      statuses.push(res.status);
      if (res.status === 429 && !limited) limited = res;
      else await res.arrayBuffer();
    }
    expect(statuses.slice(0, RATE_LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(RATE_LIMIT).every((s) => s === 429)).toBe(true);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.headers.get('ratelimit-limit')).toBe(String(RATE_LIMIT));
    expect(limited!.headers.get('ratelimit-remaining')).toBe('0');
    const body = (await limited!.json()) as { error: { code: string; statusCode: number } };
    expect(body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', statusCode: 429 });
    const other = await stats(gw2, bearer(calm.secretKey));
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe(String(RATE_LIMIT - 1));
  });

  it("answers a path parameter over 2048 characters with 414 URI_TOO_LONG in the standard body, repeating nothing of the path: the gateway's own route, a route it forwards, and the service reached directly", async () => {
    const p = await accountWithProject(gw1.url);
    const long = `prj_${'x'.repeat(3000)}`;
    const answers = [
      await fetch(`${gw1.url}/projects/${long}/members`, { headers: { cookie: p.cookie } }),
      await fetch(`${gw1.url}/contacts/${long}`, { headers: bearer(p.secretKey) }),
      await fetch(`${contacts.url}/contacts/${long}`, { headers: principalHeaders(p.projectId) }),
    ];
    for (const res of answers) {
      const text = await res.text();
      const body = JSON.parse(text) as {
        success: boolean;
        error: { code: string; statusCode: number; requestId: string };
      };
      expect([res.status, body.success, body.error.code, body.error.statusCode]).toEqual([
        414,
        false,
        'URI_TOO_LONG',
        414,
      ]);
      expect(res.headers.get('x-request-id')).toBe(body.error.requestId);
      expect(text).not.toContain('x'.repeat(20));
    }
  });

  it('answers 404 for a path no service owns and 503 when the owning service is down', async () => {
    const p = await accountWithProject(gw1.url);
    expect((await fetch(`${gw1.url}/nowhere`, { headers: bearer(p.secretKey) })).status).toBe(404);
    const down = await fetch(`${gw1.url}/segments`, { headers: bearer(p.secretKey) });
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
  });
});
