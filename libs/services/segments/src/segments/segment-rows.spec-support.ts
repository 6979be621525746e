import type { WireGroup } from '@herald/filters';
import { tableName } from '@herald/persistence';
import type { DataSource } from 'typeorm';
import { SegmentContact } from '../contacts/read-model.entities.js';
import { Segment } from '../membership/segment.entity.js';

/** What a test says about a dynamic segment; the rest takes the defaults of one just created. */
export interface DynamicSegmentRow {
  id: string;
  projectId: string;
  filters: WireGroup;
  name?: string;
  trackMembership?: boolean;
  /** Its members stored and complete (default false: a segment whose first compute has not run). */
  materialized?: boolean;
}

/** Saves a dynamic segment row directly (no compute, no events), for integration specs. */
export function saveDynamicSegment(ds: DataSource, row: DynamicSegmentRow): Promise<Segment> {
  const repo = ds.getRepository(Segment);
  return repo.save(
    repo.create({
      name: row.id,
      description: null,
      type: 'DYNAMIC',
      trackMembership: false,
      materialized: false,
      memberCount: 0,
      ...row,
    }),
  );
}

/** What a test says about a contact of the read model; the rest: `<contactId>@example.com`, subscribed, no data. */
export interface ReadModelContactRow {
  contactId: string;
  email?: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
}

/**
 * Writes contacts straight into segments' read model (no events, no re-evaluation), created and
 * updated now, in one statement; a contact already there takes the new email, subscription and data.
 */
export async function saveReadModelContacts(
  ds: DataSource,
  projectId: string,
  rows: ReadModelContactRow[],
): Promise<void> {
  await ds.query(
    `INSERT INTO ${tableName(ds, SegmentContact)} (project_id, contact_id, email, subscribed, data, created_at, updated_at)
     SELECT $1, x.contact_id, x.email, x.subscribed, x.data, now(), now()
       FROM unnest($2::varchar[], $3::varchar[], $4::boolean[], $5::jsonb[]) AS x(contact_id, email, subscribed, data)
     ON CONFLICT (project_id, contact_id) DO UPDATE
        SET email = EXCLUDED.email, subscribed = EXCLUDED.subscribed, data = EXCLUDED.data, updated_at = EXCLUDED.updated_at`,
    [
      projectId,
      rows.map((r) => r.contactId),
      rows.map((r) => r.email ?? `${r.contactId}@example.com`),
      rows.map((r) => r.subscribed ?? true),
      rows.map((r) => JSON.stringify(r.data ?? {})),
    ],
  );
}
