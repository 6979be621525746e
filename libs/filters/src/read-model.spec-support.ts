/**
 * The read model the compiler targets, with its default names (DEFAULT_FILTER_SQL_SCHEMA), and the
 * indexes docs/filters.md recommends. Tests create it in a fresh database; the segments service
 * owns the real one (its migrations should match this).
 */
import type pg from 'pg';
import type { FilterContact } from './match-contact.js';

export const READ_MODEL_DDL = `
CREATE TABLE segment_contacts (
  project_id text NOT NULL,
  contact_id text NOT NULL,
  email text NOT NULL,
  subscribed boolean NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, contact_id)
);
CREATE UNIQUE INDEX segment_contacts_email ON segment_contacts (project_id, email);
CREATE INDEX segment_contacts_data ON segment_contacts USING gin (data jsonb_path_ops);
CREATE INDEX segment_contacts_created ON segment_contacts (project_id, created_at);
CREATE INDEX segment_contacts_updated ON segment_contacts (project_id, updated_at);
CREATE TABLE segment_contact_events (
  project_id text NOT NULL,
  contact_id text NOT NULL,
  name text NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX segment_contact_events_lookup ON segment_contact_events (project_id, contact_id, name, occurred_at);
CREATE INDEX segment_contact_events_by_name ON segment_contact_events (project_id, name, occurred_at);
CREATE TABLE segment_contact_emails (
  project_id text NOT NULL,
  contact_id text NOT NULL,
  kind text NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX segment_contact_emails_lookup ON segment_contact_emails (project_id, contact_id, kind, occurred_at);
CREATE TABLE segment_memberships (
  project_id text NOT NULL,
  segment_id text NOT NULL,
  contact_id text NOT NULL,
  PRIMARY KEY (project_id, segment_id, contact_id)
);
`;

/** Inserts contacts, their events, engagement and memberships with multi-row statements. */
export async function insertContacts(
  client: pg.ClientBase,
  projectId: string,
  contacts: FilterContact[],
): Promise<void> {
  if (contacts.length === 0) return;
  await client.query(
    `INSERT INTO segment_contacts (project_id, contact_id, email, subscribed, data, created_at, updated_at)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::boolean[], $5::jsonb[], $6::timestamptz[], $7::timestamptz[])`,
    [
      projectId,
      contacts.map((c) => c.id),
      contacts.map((c) => c.email),
      contacts.map((c) => c.subscribed),
      contacts.map((c) => JSON.stringify(c.data)),
      contacts.map((c) => c.createdAt.toISOString()),
      contacts.map((c) => c.updatedAt.toISOString()),
    ],
  );
  const events = contacts.flatMap((c) => c.events.map((e) => [c.id, e.name, e.occurredAt.toISOString()] as const));
  const emails = contacts.flatMap((c) => c.emails.map((e) => [c.id, e.kind, e.occurredAt.toISOString()] as const));
  const members = contacts.flatMap((c) => [...c.segmentIds].map((s) => [s, c.id] as const));
  for (const [table, column, rows] of [
    ['segment_contact_events', 'name', events],
    ['segment_contact_emails', 'kind', emails],
  ] as const)
    if (rows.length > 0)
      await client.query(
        `INSERT INTO ${table} (project_id, contact_id, ${column}, occurred_at)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::timestamptz[])`,
        [projectId, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
      );
  if (members.length > 0)
    await client.query(
      `INSERT INTO segment_memberships (project_id, segment_id, contact_id) SELECT $1, * FROM unnest($2::text[], $3::text[])`,
      [projectId, members.map((m) => m[0]), members.map((m) => m[1])],
    );
}
