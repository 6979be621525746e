import { createTestDatabase, type TestDatabase } from '@herald/testing';
import { DataSource } from 'typeorm';
import { queryPrepared } from './prepared-query.js';

describe('queryPrepared (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    // one connection, so every call below runs on the same session
    ds = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 1 } }).initialize();
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const prepared = (text: string) =>
    ds.query(`SELECT name, generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE statement = $1`, [
      text,
    ]) as Promise<{ name: string; runs: string }[]>;

  it('prepares a statement once per connection and runs it again by name with new values', async () => {
    const text = 'SELECT $1::int * 2 AS doubled';
    expect(await queryPrepared(ds, text, [2])).toEqual([{ doubled: 4 }]);
    expect(await queryPrepared(ds, text, [21])).toEqual([{ doubled: 42 }]);
    const [statement] = await prepared(text);
    expect(statement?.name).toMatch(/^herald_[0-9a-f]{20}$/);
    expect(Number(statement?.runs)).toBe(2);
  });

  it('gives each distinct text its own statement', async () => {
    await queryPrepared(ds, 'SELECT $1::int + 1 AS n', [1]);
    await queryPrepared(ds, 'SELECT $1::int + 2 AS n', [1]);
    const [one] = await prepared('SELECT $1::int + 1 AS n');
    const [two] = await prepared('SELECT $1::int + 2 AS n');
    expect(one!.name).not.toBe(two!.name);
  });

  it("passes PostgreSQL's error through with its SQLSTATE", async () => {
    await expect(queryPrepared(ds, 'SELECT 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
  });
});
