import { DomainError } from '@herald/core';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { createServiceDataSource } from '../service-data-source.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { IdempotencyKeysStore } from './idempotency-keys.store.js';
import {
  IDEMPOTENCY_KEY_IN_USE,
  IDEMPOTENCY_KEY_REUSED,
  IdempotentRequests,
  requestFingerprint,
} from './idempotent-requests.js';

/**
 * Idempotency-Key rows on PostgreSQL (each service has its own table: here a schema of the test's):
 * the store's SQL, and IdempotentRequests' rule over it, the rule of /v1/send and /v1/track.
 */
describe('Idempotency-Key (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const keys = new IdempotencyKeysStore();
  let n = 0;
  const key = () => `key-${++n}`;
  const TABLE = 'idemtest.idempotency_keys';

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(
      { service: 'idemtest', entities: [IdempotencyKey], migrations: [] },
      db.url,
      6,
    ).initialize();
    await ds.query('CREATE SCHEMA idemtest');
    await ds.synchronize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  describe('IdempotencyKeysStore', () => {
    it('claims a key once per project: a second claim of it fails, another project claims it freely', async () => {
      const k = key();
      expect(await keys.claim(ds, 'prj_a', k, 'h1')).toBe(true);
      expect(await keys.claim(ds, 'prj_a', k, 'h1')).toBe(false);
      expect(await keys.claim(ds, 'prj_b', k, 'h1')).toBe(true);
    });

    it('keeps the hash and, once answered, the answer of the request that claimed it', async () => {
      const k = key();
      await keys.claim(ds, 'prj_a', k, 'hash-1');
      expect(await keys.kept(ds, 'prj_a', k)).toEqual({ requestHash: 'hash-1', response: null });
      await keys.answer(ds, 'prj_a', k, { success: true, data: { emails: [] } });
      expect(await keys.kept(ds, 'prj_a', k)).toEqual({
        requestHash: 'hash-1',
        response: { success: true, data: { emails: [] } },
      });
      expect(await keys.kept(ds, 'prj_b', k)).toBeUndefined();
    });

    it('gives a key back when its request failed, so the next request claims it', async () => {
      const k = key();
      await keys.claim(ds, 'prj_a', k, 'h');
      await keys.release(ds, 'prj_a', k);
      expect(await keys.kept(ds, 'prj_a', k)).toBeUndefined();
      expect(await keys.claim(ds, 'prj_a', k, 'h2')).toBe(true);
    });

    it('takes over a key remembered for more than 24 hours, as if it were new', async () => {
      const k = key();
      await keys.claim(ds, 'prj_a', k, 'old');
      await keys.answer(ds, 'prj_a', k, { old: true });
      await ds.query(`UPDATE ${TABLE} SET created_at = now() - interval '25 hours' WHERE key = $1`, [k]);
      expect(await keys.claim(ds, 'prj_a', k, 'new')).toBe(true);
      expect(await keys.kept(ds, 'prj_a', k)).toEqual({ requestHash: 'new', response: null });
    });

    it('deletes keys older than 25 hours, a batch at a time, and keeps younger ones (retention)', async () => {
      const old = [key(), key(), key()];
      const young = key();
      for (const k of [...old, young]) await keys.claim(ds, 'prj_r', k, 'h');
      await ds.query(`UPDATE ${TABLE} SET created_at = now() - interval '26 hours' WHERE key = ANY($1::varchar[])`, [
        old,
      ]);
      await ds.query(`UPDATE ${TABLE} SET created_at = now() - interval '24 hours' WHERE key = $1`, [young]);
      expect(await keys.pruneExpired(ds, 2)).toBe(2);
      expect(await keys.pruneExpired(ds, 2)).toBe(1);
      expect(await keys.pruneExpired(ds, 2)).toBe(0);
      for (const k of old) expect(await keys.kept(ds, 'prj_r', k)).toBeUndefined();
      expect(await keys.kept(ds, 'prj_r', young)).toEqual({ requestHash: 'h', response: null });
    });
  });

  describe('IdempotentRequests', () => {
    let requests: IdempotentRequests;
    beforeAll(() => {
      requests = new IdempotentRequests(ds);
    });
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e instanceof DomainError ? `${e.kind}:${e.code}` : String(e)),
      );
    /** A request's work that runs until `finish` is called: the key stays claimed meanwhile. */
    const held = <T>(answer: T) => {
      let finish!: () => void;
      const done = new Promise<void>((resolve) => (finish = resolve));
      let runs = 0;
      return { work: async () => (runs++, await done, answer), finish: () => finish(), runs: () => runs };
    };

    it('the same key and body within 24 hours runs once and answers the first answer again', async () => {
      const k = key();
      let runs = 0;
      const work = async () => ({ run: ++runs });
      expect(await requests.run('prj_i', k, { a: 1, b: [1, 2] }, work)).toEqual({ run: 1 });
      // the same body with its keys in another order is the same request
      expect(await requests.run('prj_i', k, { b: [1, 2], a: 1 }, work)).toEqual({ run: 1 });
      expect(runs).toBe(1);
    });

    it('replays the first answer byte for byte: its keys in their order', async () => {
      const k = key();
      const answer = { success: true, data: { timestamp: 't', contact: 'c', event: 'e' } };
      await requests.run('prj_i', k, {}, async () => answer);
      expect(JSON.stringify(await requests.run('prj_i', k, {}, async () => ({})))).toBe(JSON.stringify(answer));
    });

    it('the same key with another body is 409 IDEMPOTENCY_KEY_REUSED, and runs nothing', async () => {
      const k = key();
      let runs = 0;
      await requests.run('prj_i', k, { a: 1 }, async () => ++runs);
      expect(await codeOf(requests.run('prj_i', k, { a: 2 }, async () => ++runs))).toBe(
        `conflict:${IDEMPOTENCY_KEY_REUSED}`,
      );
      expect(runs).toBe(1);
    });

    it('concurrent requests with one key: one runs; the others, while it runs, are 409 IDEMPOTENCY_KEY_IN_USE; afterwards they get its answer', async () => {
      const k = key();
      const first = held({ id: 'evt_1' });
      const all = Array.from({ length: 8 }, () => requests.run('prj_c', k, { e: 'x' }, first.work));
      // every other request is answered while the one that claimed the key is still held
      const early: string[] = [];
      let othersAnswered!: () => void;
      const others = new Promise<void>((resolve) => (othersAnswered = resolve));
      const outcomes = all.map((p) =>
        codeOf(p).then((code) => {
          if (early.push(code) === 7) othersAnswered();
          return code;
        }),
      );
      await others;
      expect(early).toEqual(Array(7).fill(`conflict:${IDEMPOTENCY_KEY_IN_USE}`));
      first.finish();
      expect((await Promise.all(outcomes)).filter((c) => c === 'ok')).toHaveLength(1);
      expect(first.runs()).toBe(1);
      expect(await requests.run('prj_c', k, { e: 'x' }, first.work)).toEqual({ id: 'evt_1' });
      expect(first.runs()).toBe(1);
    });

    it('a request that fails gives its key back: its retry runs again', async () => {
      const k = key();
      const failing = async () => {
        throw new Error('boom');
      };
      expect(await codeOf(requests.run('prj_f', k, { a: 1 }, failing))).toBe('Error: boom');
      expect(await keys.kept(ds, 'prj_f', k)).toBeUndefined();
      expect(await requests.run('prj_f', k, { a: 1 }, async () => 'second')).toBe('second');
    });

    it('keys are per project: another project with the same key and another body runs on its own', async () => {
      const k = key();
      expect(await requests.run('prj_p1', k, { a: 1 }, async () => 'one')).toBe('one');
      expect(await requests.run('prj_p2', k, { a: 2 }, async () => 'two')).toBe('two');
      expect(await requests.run('prj_p1', k, { a: 1 }, async () => 'again')).toBe('one');
    });

    it('refuses an empty key or one over 255 characters (422 on the header), claiming nothing', async () => {
      for (const k of ['', 'k'.repeat(256)])
        expect(await codeOf(requests.run('prj_v', k, {}, async () => 'ran'))).toBe('invalid:VALIDATION_ERROR');
      expect(
        ((await ds.query(`SELECT count(*)::int AS n FROM ${TABLE} WHERE project_id = 'prj_v'`)) as { n: number }[])[0]!
          .n,
      ).toBe(0);
    });

    it('fingerprints bodies by value: key order and undefined members do not count, values do', () => {
      expect(requestFingerprint({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
        requestFingerprint({ b: { c: [1, { e: 3, d: 2 }] }, a: 1, z: undefined }),
      );
      expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: '1' }));
      expect(requestFingerprint([1, 2])).not.toBe(requestFingerprint([2, 1]));
    });
  });
});
