/**
 * bench/segments-track's analysis of the entry latency run: where each `segment.entered` waited on its
 * way from the request to segments' consumer, read from the outboxes and inboxes on PostgreSQL's
 * clock, and the table that prints it.
 */
import type pg from 'pg';
import { ms, num, printTable, summarise } from './support.js';

/** Where an entry's latency went, stage by stage, and the contacts relay's rounds that carried the entries. */
export interface Stages {
  /** Scheduled start → the request's transaction wrote contact.created (contacts' outbox `created_at`). */
  request: number[];
  /** → the contacts relay's round that read it began (`published_at`: its transaction's start). */
  relayWait: number[];
  /** → segments' consumer transaction that applied it began (segments' inbox `processed_at`). */
  dispatch: number[];
  /** The relay's rounds over the entry run: events per round, and the time from one round's start to the next. */
  roundSizes: number[];
  roundGaps: number[];
}

/**
 * Each entry's path through PostgreSQL's clock: the request's write of `contact.created` in contacts'
 * outbox, the relay round that read it (every row of a round is marked with its transaction's start),
 * then segments' consumer transaction (its inbox row's start).
 */
export async function entryStages(admin: pg.Pool, like: string, scheduled: Map<string, number>): Promise<Stages> {
  const { rows } = await admin.query<{ email: string; created: Date; published: Date; applied: Date | null }>(
    `SELECT o.envelope->'payload'->>'email' AS email, o.created_at AS created, o.published_at AS published,
            i.processed_at AS applied
       FROM contacts.outbox o
       LEFT JOIN segments.inbox i ON i.consumer = 'segments' AND i.event_id = (o.envelope->>'eventId')::uuid
      WHERE o.topic = 'contact.created' AND o.envelope->'payload'->>'email' LIKE $1`,
    [like],
  );
  const stages: Stages = { request: [], relayWait: [], dispatch: [], roundSizes: [], roundGaps: [] };
  let first = Infinity;
  let last = -Infinity;
  for (const r of rows) {
    const at = scheduled.get(r.email);
    if (at === undefined) continue;
    stages.request.push(r.created.getTime() - at);
    stages.relayWait.push(r.published.getTime() - r.created.getTime());
    if (r.applied) stages.dispatch.push(r.applied.getTime() - r.published.getTime());
    first = Math.min(first, r.published.getTime());
    last = Math.max(last, r.published.getTime());
  }
  if (rows.length === 0) return stages;
  const rounds = await admin.query<{ at: Date; n: number }>(
    `SELECT published_at AS at, count(*)::int AS n FROM contacts.outbox
      WHERE published_at BETWEEN $1 AND $2 GROUP BY 1 ORDER BY 1`,
    [new Date(first), new Date(last)],
  );
  for (let k = 0; k < rounds.rows.length; k++) {
    stages.roundSizes.push(rounds.rows[k]!.n);
    if (k > 0) stages.roundGaps.push(rounds.rows[k]!.at.getTime() - rounds.rows[k - 1]!.at.getTime());
  }
  return stages;
}

/** Prints where the entries waited, stage by stage, and the relay's rounds. */
export function printStages(st: Stages): void {
  const row = (label: string, values: number[], unit = ms) => {
    const x = summarise(values);
    return [label, num(x.count), unit(x.p50), unit(x.p90), unit(x.p99), unit(x.max)];
  };
  console.log('where an entry waited (PostgreSQL clock; each stage from the end of the one before)');
  printTable([
    ['stage', 'n', 'p50', 'p90', 'p99', 'max'],
    row('request: scheduled → contact.created written', st.request),
    row('relay: → the contacts relay round that read it began', st.relayWait),
    row("dispatch: → segments' consumer transaction began", st.dispatch),
    row('contacts relay rounds: events per round', st.roundSizes, (v) => num(v)),
    row('contacts relay rounds: start to next start', st.roundGaps),
  ]);
}
