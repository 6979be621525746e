import { jest } from '@jest/globals';
import { LATEST, positionsContext, RequestPositions, type HeraldRuntime, type Observed } from '@herald/core';
import type { ReadYourWrites } from '@herald/messaging';
import type { DataSource } from 'typeorm';
import { SendingSettings } from '../sending.settings.js';
import type { DomainsClient, OwnerSenderDomain } from './domains-client.js';
import type { SenderDomain } from './sender-domain.entity.js';
import { COPY_ANSWER_TTL_MS, OWNER_ANSWER_TTL_MS, SenderDomains } from './sender-domains.js';

const runtime = { internalJwtSecret: 'x'.repeat(40) } as HeraldRuntime;

/** SenderDomains over an in-memory copy and a scripted owner, counting the owner's answers. */
function setup(copy: Partial<SenderDomain>[], owner: (domain: string) => OwnerSenderDomain, current = () => true) {
  const asked: string[] = [];
  const reads: string[] = [];
  const db = {
    getRepository: () => ({
      findOneBy: async (w: { projectId: string; domain: string }) => {
        reads.push(w.domain);
        return (
          (copy.find((r) => r.projectId === w.projectId && r.domain === w.domain && r.verified) as SenderDomain) ?? null
        );
      },
    }),
  } as unknown as DataSource;
  const client = {
    senderDomain: async (_projectId: string, domain: string) => {
      asked.push(domain);
      return owner(domain);
    },
  } as unknown as DomainsClient;
  const readYourWrites = { copyIsCurrent: current } as unknown as ReadYourWrites;
  return { senders: new SenderDomains(db, new SendingSettings(), runtime, client, readYourWrites), asked, reads };
}

/** Runs `fn` as a request of project `p` that must observe `observed`. */
function asRequest<T>(observed: Observed, fn: () => Promise<T>): Promise<T> {
  const request = new RequestPositions();
  request.projectId = 'p';
  request.observed = observed;
  return positionsContext.run(request, fn);
}

const verified = (domain: string): OwnerSenderDomain => ({
  verified: true,
  domainId: `dom_${domain}`,
  domain,
  dkimSelector: 'sel',
  dkimPrivateKeySealed: 'sealed',
});

describe('SenderDomains: the copy answers first, the owner when the copy says no', () => {
  afterEach(() => jest.useRealTimers());

  it('does not ask the owner when the copy knows the domain verified', async () => {
    const { senders, asked } = setup([{ projectId: 'p', domain: 'a.test', verified: true, domainId: 'dom_a' }], () => ({
      verified: false,
      domain: 'a.test',
    }));
    expect(await senders.verified('p', 'A.test')).toMatchObject({ domainId: 'dom_a' });
    expect(asked).toEqual([]);
  });

  it('accepts what the owner says is verified when the copy has not heard yet, and keeps that answer briefly', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { senders, asked } = setup([], verified);
    expect(await senders.verified('p', 'b.test')).toMatchObject({ domainId: 'dom_b.test', dkimSelector: 'sel' });
    expect(await senders.verified('p', 'b.test')).toMatchObject({ domainId: 'dom_b.test' });
    expect(asked).toEqual(['b.test']);
    jest.setSystemTime(1_000_000 + OWNER_ANSWER_TTL_MS + 1);
    await senders.verified('p', 'b.test');
    expect(asked).toEqual(['b.test', 'b.test']);
  });

  it('never keeps a "no": the next request asks again, so a domain verified meanwhile is accepted', async () => {
    let ok = false;
    const { senders, asked } = setup([], (d) => (ok ? verified(d) : { verified: false, domain: d }));
    await expect(senders.assertVerified('p', 'x@c.test', 'from')).rejects.toMatchObject({
      kind: 'invalid',
      details: { errors: [{ field: 'from', code: 'domain_not_verified' }] },
    });
    ok = true;
    await expect(senders.assertVerified('p', 'x@c.test', 'from')).resolves.toBeUndefined();
    expect(asked).toEqual(['c.test', 'c.test']);
  });

  it('asks the owner afresh, whatever the copy and the kept answers say, while the copy may not hold a domain change of the project', async () => {
    let current = true;
    let ok = true;
    const { senders, asked } = setup(
      [{ projectId: 'p', domain: 'e.test', verified: true, domainId: 'dom_e' }],
      (d) => (ok ? verified(d) : { verified: false, domain: d }),
      () => current,
    );
    expect(await senders.verified('p', 'f.test')).not.toBeNull(); // kept for OWNER_ANSWER_TTL_MS
    ok = false; // both deleted at the owner; the copy still says e.test is verified
    current = false;
    expect(await senders.verified('p', 'e.test')).toBeNull();
    expect(await senders.verified('p', 'f.test')).toBeNull();
    expect(asked).toEqual(['f.test', 'e.test', 'f.test']);
  });

  it('drops a kept owner answer when the copy learns the domain was unverified', async () => {
    let ok = true;
    const { senders } = setup([], (d) => (ok ? verified(d) : { verified: false, domain: d }));
    expect(await senders.verified('p', 'd.test')).not.toBeNull();
    ok = false;
    senders.forget('p', 'd.test');
    expect(await senders.verified('p', 'd.test')).toBeNull();
  });
});

describe("SenderDomains: /v1/send's check keeps the copy's verified rows briefly", () => {
  afterEach(() => jest.useRealTimers());
  const copy = [{ projectId: 'p', domain: 'a.test', verified: true, domainId: 'dom_a' }];
  const unverified = (d: string): OwnerSenderDomain => ({ verified: false, domain: d });

  it('answers a send from a verified row of the copy read moments ago, without reading the copy again', async () => {
    const { senders, reads } = setup(copy, unverified);
    await asRequest({ domains: 3 }, () => senders.assertVerified('p', 'x@a.test', 'from'));
    await asRequest({ domains: 3 }, () => senders.assertVerified('p', 'y@A.test', 'from'));
    await senders.assertVerified('p', 'z@a.test', 'from'); // outside a request: observes no write
    expect(reads).toEqual(['a.test']);
  });

  it("reads the copy again for a request that must observe a later write of the project's domains, or the latest", async () => {
    const { senders, reads } = setup(copy, unverified);
    await asRequest({ domains: 3 }, () => senders.assertVerified('p', 'x@a.test', 'from'));
    await asRequest({ domains: 4 }, () => senders.assertVerified('p', 'x@a.test', 'from'));
    await asRequest(LATEST, () => senders.assertVerified('p', 'x@a.test', 'from'));
    await asRequest(LATEST, () => senders.assertVerified('p', 'x@a.test', 'from'));
    expect(reads).toEqual(['a.test', 'a.test', 'a.test', 'a.test']);
  });

  it('keeps a row no longer than COPY_ANSWER_TTL_MS, and drops it when the copy learns the domain was unverified', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const rows = [...copy];
    const { senders, reads } = setup(rows, unverified);
    await senders.assertVerified('p', 'x@a.test', 'from');
    jest.setSystemTime(1_000_000 + COPY_ANSWER_TTL_MS + 1);
    await senders.assertVerified('p', 'x@a.test', 'from');
    expect(reads).toEqual(['a.test', 'a.test']);
    rows.length = 0; // the copy applies domain.unverified
    senders.forget('p', 'a.test');
    await expect(senders.assertVerified('p', 'x@a.test', 'from')).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('keeps nothing for the delivery worker: a signing key is read from the copy every time', async () => {
    const { senders, reads } = setup(copy, unverified);
    await senders.assertVerified('p', 'x@a.test', 'from');
    await senders.verified('p', 'a.test');
    await senders.verified('p', 'a.test');
    expect(reads).toEqual(['a.test', 'a.test', 'a.test']);
  });
});
