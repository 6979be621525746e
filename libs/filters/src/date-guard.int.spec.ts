import { createTestDatabase, type TestDatabase } from '@herald/testing';
import pg from 'pg';
import { Random } from './random-filters.spec-support.js';
import { canonicalDateSql } from './compile-sql.js';
import { dateInstant, qualifiesAsDate } from './values.js';

/**
 * SQL reads dates through canonicalDateSql (DATE_SQL_REGEX, then a canonical ISO form compared as
 * text); the matcher uses qualifiesAsDate (isIsoDate of @herald/contact-data) and the instant. They
 * must accept exactly the same strings, and the canonical form must be the matcher's instant.
 */
describe('SQL reads as dates exactly the strings the matcher treats as dates, at the same instants', () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`SET TIME ZONE 'Asia/Kathmandu'`);
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it('on 30,000 generated near-dates', async () => {
    const r = new Random(7);
    const d = (n: number) =>
      Array.from({ length: n }, () => (r.chance(0.9) ? String(r.int(10)) : r.pick(['x', '/', ' ', '-']))).join('');
    const two = (max: number) => String(r.int(max)).padStart(2, '0');
    const samples = new Set<string>([
      '0000-01-01',
      '0000-02-29',
      '0001-01-01',
      '2000-02-29',
      '1900-02-29',
      '2024-02-29',
    ]);
    while (samples.size < 30_000) {
      const year = r.chance(0.1) ? r.pick(['0000', '1900', '2000', '2100', '2400', '0004', '1600']) : d(4);
      const day = `${year}-${two(14)}-${two(33)}`;
      const roll = r.int(6);
      if (roll === 0) samples.add(day);
      else if (roll === 1) samples.add(`${day}T${two(26)}:${two(62)}:${two(62)}Z`);
      else if (roll === 2) samples.add(`${day}T${two(24)}:${two(60)}:${two(60)}.${d(r.pick([1, 3, 4]))}Z`);
      else if (roll === 3)
        samples.add(
          `${day}${r.pick(['t', 'T', ' '])}${two(24)}:${two(60)}:${two(60)}${r.pick(['z', 'Z', '+00:00', ''])}`,
        );
      else if (roll === 4) samples.add(`${two(13)}/${two(32)}/${d(4)}`);
      else samples.add(`${d(4)}-${d(2)}-${d(2)}`);
    }
    const list = [...samples];
    const { rows } = await client.query(
      `SELECT s, ${canonicalDateSql('s')} AS canonical FROM unnest($1::text[]) AS s`,
      [list],
    );
    const expected = (s: string) => (qualifiesAsDate(s) ? new Date(dateInstant(s)).toISOString() : null);
    const disagreements = (rows as { s: string; canonical: string | null }[]).filter(
      (row) => row.canonical !== expected(row.s),
    );
    expect(disagreements.slice(0, 10)).toEqual([]);
    // the sample holds plenty of both
    expect(list.filter(qualifiesAsDate).length).toBeGreaterThan(3000);
  });
});
