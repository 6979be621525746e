/**
 * The final state a full replay (scenario 4 of issue 44) must leave as it found it: the rows that
 * matter of every service, read from PostgreSQL as a normalised, ordered picture (each row as JSON
 * with its columns sorted, the rows of a table sorted), so that two pictures compare with `diff`.
 *
 * Columns left out, because they change without the state changing:
 * - `updated_at`: rewritten by a write that changes nothing else (a no-op upsert is not a defect);
 * - `lease_until`, `locked_by`, `locked_until`: a worker's lease on a row, taken again after a restart;
 * - `last_checked_at`: the domains service's periodic DNS check, due again after a restart;
 * - `counted_at`: when segments last refreshed a segment's count (a timer, not an event).
 * Outboxes, inboxes, jobs and retention/sweep cursors are bookkeeping, not state, and are not read.
 */
import type pg from 'pg';

export const EXCLUDED_COLUMNS = [
  'updated_at',
  'lease_until',
  'locked_by',
  'locked_until',
  'last_checked_at',
  'counted_at',
];

/** The tables read, by service: state a replayed or duplicated event could change. */
export const SNAPSHOT_TABLES: readonly string[] = [
  'contacts.contacts',
  'contacts.tracked_events',
  'contacts.dead_letters',
  'sending.emails',
  'sending.email_events',
  'sending.suppressions',
  'sending.dead_letters',
  'segments.segment_contacts',
  'segments.segment_memberships',
  'segments.segment_contact_events',
  'segments.segment_contact_emails',
  'segments.segment_deleted_contacts',
  'segments.dead_letters',
  'campaigns.campaigns',
  'campaigns.campaign_recipients',
  'campaigns.dead_letters',
  'workflows.workflow_executions',
  'workflows.workflow_step_runs',
  'workflows.workflow_entries',
  'workflows.workflow_contact_activity',
  'workflows.workflow_segment_members',
  'workflows.dead_letters',
  'analytics.campaign_stats',
  'analytics.campaign_engagements',
  'analytics.event_counts',
  'analytics.event_counts_daily',
  'analytics.activity_items',
  'analytics.activity_hourly',
  'analytics.activity_minutely',
  'analytics.activity_types',
  'analytics.tracked_emails',
  'analytics.workflow_executions',
  'analytics.dead_letters',
  'webhooks.deliveries',
  'webhooks.dead_letters',
  'gateway.metered_emails',
  'gateway.billing_usage',
  'gateway.dead_letters',
];

/** Table → its rows, each a JSON text (jsonb's canonical form: keys sorted), in order. */
export type Snapshot = Map<string, string[]>;

export async function snapshot(pool: pg.Pool, tables: readonly string[] = SNAPSHOT_TABLES): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const table of tables) {
    const { rows } = await pool.query<{ row: string }>(
      `SELECT (to_jsonb(t) - $1::text[])::text AS row FROM ${table} t ORDER BY 1`,
      [EXCLUDED_COLUMNS],
    );
    out.set(
      table,
      rows.map((r) => r.row),
    );
  }
  return out;
}

/** How two snapshots differ, table by table: rows only before, rows only after (as many times as they differ). */
export interface SnapshotDiff {
  table: string;
  before: number;
  after: number;
  gone: string[];
  added: string[];
}

export function diffSnapshots(before: Snapshot, after: Snapshot): SnapshotDiff[] {
  const diffs: SnapshotDiff[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(table) ?? [];
    const b = after.get(table) ?? [];
    const left = new Map<string, number>();
    for (const r of a) left.set(r, (left.get(r) ?? 0) + 1);
    const added: string[] = [];
    for (const r of b) {
      const n = left.get(r) ?? 0;
      if (n > 0) left.set(r, n - 1);
      else added.push(r);
    }
    const gone = [...left].flatMap(([r, n]) => Array<string>(n).fill(r));
    if (gone.length || added.length) diffs.push({ table, before: a.length, after: b.length, gone, added });
  }
  return diffs;
}

/** Rows per table, for the report. */
export const sizeOf = (s: Snapshot): number => [...s.values()].reduce((n, rows) => n + rows.length, 0);
