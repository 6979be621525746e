import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { sendingService } from '../sending.module.js';
import { IdempotencyKeysStore } from './idempotency-keys.store.js';

/** /v1/send's Idempotency-Key rows on PostgreSQL: claimed once, kept with their answer, given back on failure, taken over after 24 hours. */
describe('IdempotencyKeysStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const keys = new IdempotencyKeysStore();
  let n = 0;
  const key = () => `key-${++n}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

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
    await ds.query(`UPDATE sending.idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [k]);
    expect(await keys.claim(ds, 'prj_a', k, 'new')).toBe(true);
    expect(await keys.kept(ds, 'prj_a', k)).toEqual({ requestHash: 'new', response: null });
  });

  it('deletes keys older than 25 hours, a batch at a time, and keeps younger ones (retention)', async () => {
    const old = [key(), key(), key()];
    const young = key();
    for (const k of [...old, young]) await keys.claim(ds, 'prj_r', k, 'h');
    await ds.query(
      `UPDATE sending.idempotency_keys SET created_at = now() - interval '26 hours' WHERE key = ANY($1::varchar[])`,
      [old],
    );
    await ds.query(`UPDATE sending.idempotency_keys SET created_at = now() - interval '24 hours' WHERE key = $1`, [
      young,
    ]);
    expect(await keys.pruneExpired(ds, 2)).toBe(2);
    expect(await keys.pruneExpired(ds, 2)).toBe(1);
    expect(await keys.pruneExpired(ds, 2)).toBe(0);
    for (const k of old) expect(await keys.kept(ds, 'prj_r', k)).toBeUndefined();
    expect(await keys.kept(ds, 'prj_r', young)).toEqual({ requestHash: 'h', response: null });
  });
});
