import { Topics, type EventEnvelope } from '@herald/contracts';
import { SQL_UUID_V7, type Outbox } from '@herald/messaging';
import type { SqlParam } from '@herald/persistence';
import type { EntityManager } from 'typeorm';

/** A segment's entries and exits in number (`reconcilePublishing`). */
export interface ReconcileCount {
  segment_id: string;
  added: number;
  removed: number;
}

/**
 * The events of a reconciliation built in SQL (`reconcilePublishing`): for each segment that
 * publishes them, its `segment.entered` and `segment.exited` envelopes as the contracts built them
 * for one of its contacts (their reason, time, trace and source), whose id, key, contact and address
 * each event replaces with its own.
 */
export interface EventsInSql {
  outbox: Outbox;
  templates: { segmentId: string; entered: EventEnvelope; exited: EventEnvelope }[];
}

/** The sort memory of a publishing reconciliation's transaction (a compute batch's, bounded by its size). */
const PUBLISHING_WORK_MEM = '32MB';

/**
 * Runs a reconciliation (`EvaluationStore.reconcilePublishing`: its CTEs, the last of them `changed`,
 * and their parameters) with the events of its tracking segments written to the outbox by the same
 * statement: each event is its segment's envelope of its kind as the contract's `create` built it (a
 * template), with its own id (a UUIDv7), key, contact and address; per segment, its entries then its
 * exits, in contact order (numbered on the narrow rows, the envelopes built after them). Answers each
 * segment's entries and exits in number.
 */
export async function publishingReconciliation(
  m: EntityManager,
  projectId: string,
  ctes: string,
  params: unknown[],
  events: EventsInSql,
): Promise<ReconcileCount[]> {
  const outbox = events.outbox.inStatement(m, [Topics.SegmentEntered, Topics.SegmentExited]);
  const param: SqlParam = (value, type) => `$${params.push(value)}::${type}`;
  const segmentIds = param(
    events.templates.map((t) => t.segmentId),
    'varchar[]',
  );
  const entered = param(
    events.templates.map((t) => JSON.stringify(t.entered)),
    'jsonb[]',
  );
  const exited = param(
    events.templates.map((t) => JSON.stringify(t.exited)),
    'jsonb[]',
  );
  // the envelopes are sorted once, in memory: a batch's (COMPUTE_BATCH rows of up to ~1 KB) spilled
  // to temporary files under the default work_mem, twice (its numbering, then the outbox's order)
  await m.query(`SET LOCAL work_mem = '${PUBLISHING_WORK_MEM}'`);
  const [{ counts, last }] = await m.query<[{ counts: ReconcileCount[] | null; last: string | null }]>(
    `WITH ${ctes},
       templates AS (
         SELECT * FROM unnest(${segmentIds}, ${entered}, ${exited}) WITH ORDINALITY AS t(segment_id, entered, exited, ord)),
       numbered AS (
         SELECT t.ord, ch.entered, ch.contact_id, ch.email,
                row_number() OVER (ORDER BY t.ord, ch.entered DESC, ch.contact_id) AS n
           FROM changed ch JOIN templates t ON t.segment_id = ch.segment_id
          WHERE ch.email IS NOT NULL),
       events AS (
         SELECT tpl.e || jsonb_build_object('eventId', ${SQL_UUID_V7}, 'key', ch.contact_id,
                  'payload', (tpl.e->'payload') || jsonb_build_object('contactId', ch.contact_id, 'email', ch.email)) AS e,
                ch.n
           FROM numbered ch JOIN templates t ON t.ord = ch.ord
           CROSS JOIN LATERAL (SELECT CASE WHEN ch.entered THEN t.entered ELSE t.exited END AS e) tpl),
       outbox AS (${outbox.insert('events')})
       SELECT (SELECT json_agg(x) FROM (
                 SELECT segment_id, count(*) FILTER (WHERE entered)::int AS added,
                        count(*) FILTER (WHERE NOT entered)::int AS removed
                   FROM changed GROUP BY segment_id) x) AS counts,
              (SELECT max(id) FROM outbox) AS last,
              ${outbox.notify('outbox', param)} AS notified`,
    params,
  );
  outbox.wrote([projectId], last);
  return counts ?? [];
}
