import { createTestDatabase, type TestDatabase } from '@herald/testing';
import pg from 'pg';
import { compileFilter } from './compile-sql.js';
import { parseFilter } from './parse-filter.js';
import {
  FIXTURE_CONTACTS,
  FIXTURE_FIELD_TYPES,
  FIXTURE_NOW,
  FIXTURE_ROWS,
  fixtureSegments,
} from './filter-fixtures.spec-support.js';
import { insertContacts, READ_MODEL_DDL } from './read-model.spec-support.js';

describe('every operator against every field type, in PostgreSQL (the shared fixture table)', () => {
  let db: TestDatabase;
  let client: pg.Client;
  const project = 'prj_fixtures';
  const ctx = { now: FIXTURE_NOW, fieldTypes: FIXTURE_FIELD_TYPES, segments: fixtureSegments(), projectId: project };

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    // dates must not depend on the session's time zone: run in one far from UTC
    await client.query(`SET TIME ZONE 'Pacific/Chatham'`);
    await client.query(READ_MODEL_DDL);
    await insertContacts(client, project, FIXTURE_CONTACTS);
    // the same contacts in another project: a filter never reaches them
    await insertContacts(client, 'prj_other', FIXTURE_CONTACTS);
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it.each(
    FIXTURE_ROWS.flatMap(
      (r) =>
        [
          [r.rule, r, false],
          [`${r.rule} (records probed per contact)`, r, true],
        ] as const,
    ),
  )('%s', async (_rule, row, perContact) => {
    const { sql, params } = compileFilter(parseFilter(row.filter), { ...ctx, perContact });
    const rows = (await client.query(`SELECT c.contact_id FROM segment_contacts c WHERE ${sql}`, params)).rows as {
      contact_id: string;
    }[];
    const order = FIXTURE_CONTACTS.map((c) => c.id);
    const matched = rows.map((r) => r.contact_id).sort((a, b) => order.indexOf(a) - order.indexOf(b));
    expect(matched).toEqual(row.expected);
  });
});
