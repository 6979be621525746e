import { createTestDatabase, type TestDatabase } from '@herald/testing';
import pg from 'pg';
import { compileFilter } from './compile-sql.js';
import { createMatcher } from './match-contact.js';
import { toWire, type Filter, type SegmentReference } from './model.js';
import {
  parseOrNull,
  RANDOM_FIELD_TYPES,
  RANDOM_NOW,
  Random,
  randomContact,
  randomFilter,
} from './random-filters.spec-support.js';
import { insertContacts, READ_MODEL_DDL } from './read-model.spec-support.js';

const SEED = Number(process.env.FILTERS_SEED ?? 20240331);
const CONTACTS = 120;
const FILTERS = 600;

/**
 * The randomized agreement test: PostgreSQL (compileFilter) and the matcher (matchContact) give
 * the same answer for every generated filter × contact pair, hostile values included. Seeded and
 * deterministic; FILTERS_SEED=<n> explores another sequence.
 */
describe('PostgreSQL and the in-memory matcher agree on random filters and contacts', () => {
  let db: TestDatabase;
  let client: pg.Client;
  const project = 'prj_random';

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`SET TIME ZONE 'America/St_Johns'`);
    await client.query(READ_MODEL_DDL);
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it(`agrees on ${FILTERS} filters × ${CONTACTS} contacts (seed ${SEED})`, async () => {
    const r = new Random(SEED);
    const contacts = Array.from({ length: CONTACTS }, (_, i) => randomContact(r, `k${i}`));
    await insertContacts(client, project, contacts);
    await insertContacts(client, 'prj_decoy', contacts);

    const next = (): { raw: unknown; filter: Filter } => {
      for (;;) {
        const raw = randomFilter(r);
        const filter = parseOrNull(raw);
        if (filter) return { raw, filter };
      }
    };
    // d1 is a dynamic segment, inlined (a fresh random filter each time, so `isNotMember` negates all kinds of conditions)
    const segmentsWith =
      (dynamic: Filter) =>
      (id: string): SegmentReference | undefined =>
        id === 's1' || id === 's2'
          ? { kind: 'stored' }
          : id === 'd1'
            ? { kind: 'dynamic', filter: dynamic }
            : undefined;

    let pairs = 0;
    let matches = 0;
    const disagreements: string[] = [];
    for (let i = 0; i < FILTERS; i++) {
      const { raw, filter } = next();
      const dynamic = next().filter;
      const segments = segmentsWith(dynamic);
      const ctx = {
        now: RANDOM_NOW,
        segments,
        projectId: project,
        ...(i % 2 === 0 ? { fieldTypes: RANDOM_FIELD_TYPES } : {}),
        // half the filters with each record test probed per contact (the real-time shape), half as joins
        perContact: Math.floor(i / 2) % 2 === 1,
      };
      const { sql, params } = compileFilter(filter, ctx);
      const inSql = new Set(
        (
          (await client.query(`SELECT c.contact_id FROM segment_contacts c WHERE ${sql}`, params)).rows as {
            contact_id: string;
          }[]
        ).map((row) => row.contact_id),
      );
      const matcher = createMatcher(filter, ctx);
      for (const contact of contacts) {
        pairs++;
        const inMemory = matcher(contact);
        if (inMemory) matches++;
        if (inMemory !== inSql.has(contact.id) && disagreements.length < 5)
          disagreements.push(
            `filter ${JSON.stringify(raw)} (registry: ${'fieldTypes' in ctx}, per contact: ${ctx.perContact}, d1: ${JSON.stringify(toWire(dynamic))})` +
              ` on ${JSON.stringify(contact)}: ` +
              `matcher ${inMemory}, PostgreSQL ${inSql.has(contact.id)}\n  SQL: ${sql}`,
          );
      }
    }
    expect(disagreements).toEqual([]);
    expect(pairs).toBeGreaterThanOrEqual(5000);
    // a generator whose filters all match nothing (or everything) would agree trivially
    expect(matches / pairs).toBeGreaterThan(0.15);
    expect(matches / pairs).toBeLessThan(0.85);
  });
});
