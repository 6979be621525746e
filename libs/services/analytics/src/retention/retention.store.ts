import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ActivityItem,
  ActivityMinutely,
  ActivityTypeCount,
  RetentionState,
  TrackedEmail,
  WorkflowExecutionState,
} from '../projection/activity.entities.js';

/** Rows deleted per statement: a long prune never holds one huge transaction. */
const CHUNK = 5000;

/**
 * The retention chain's position (`retention_state`, one row: the number of the link that may act)
 * and the prune's deletes. Each delete runs as statements of at most `chunk` rows, each its own
 * transaction when `m` is the data source's manager.
 */
@Injectable()
export class RetentionStore {
  /** Rows deleted per statement (5 000). */
  chunk = CHUNK;

  /** The current link's number (undefined before the chain's first link). */
  async current(m: EntityManager): Promise<number | undefined> {
    return (await m.findOneBy(RetentionState, { id: 1 }))?.seq;
  }

  /** The current link's number, its row locked to the caller's commit. */
  async lock(m: EntityManager): Promise<number | undefined> {
    const [locked] = await m.query<{ seq: number }[]>(
      `SELECT seq FROM ${tableName(m, RetentionState)} WHERE id = 1 FOR UPDATE`,
    );
    return locked?.seq;
  }

  /** Moves the chain to its next link (the first: 1); answers its number. */
  async advance(m: EntityManager): Promise<number> {
    const rows = await m.query<{ seq: number }[]>(
      `WITH up AS (INSERT INTO ${tableName(m, RetentionState)} AS s (id, seq) VALUES (1, 1)
         ON CONFLICT (id) DO UPDATE SET seq = s.seq + 1 RETURNING seq) SELECT seq FROM up`,
    );
    return rows[0]!.seq;
  }

  /** Every project that has had feed items (the per-type counts stay past retention). */
  async projects(m: EntityManager): Promise<string[]> {
    const rows: { project_id: string }[] = await m.query(
      `SELECT DISTINCT project_id FROM ${tableName(m, ActivityTypeCount)}`,
    );
    return rows.map((r) => r.project_id);
  }

  /** Deletes the project's feed items that occurred before `cutoff`, along the feed's (project_id, occurred_at) index. */
  pruneItems(m: EntityManager, projectId: string, cutoff: Date): Promise<number> {
    return this.chunked(m, tableName(m, ActivityItem), 'event_id', 'project_id = $1 AND occurred_at < $2', [
      projectId,
      cutoff,
    ]);
  }

  /** Deletes the tracked emails whose first known time is before `cutoff`. */
  pruneTrackedEmails(m: EntityManager, cutoff: Date): Promise<number> {
    return this.chunked(
      m,
      tableName(m, TrackedEmail),
      'email_id',
      'COALESCE(sent_at, delivered_at, counted_sent_at) < $1',
      [cutoff],
    );
  }

  /** Deletes the executions that ended (neither running nor waiting) with a last state before `cutoff`. */
  pruneFinishedExecutions(m: EntityManager, cutoff: Date): Promise<number> {
    return this.chunked(
      m,
      tableName(m, WorkflowExecutionState),
      'execution_id',
      `state_at < $1 AND status NOT IN ('RUNNING', 'WAITING')`,
      [cutoff],
    );
  }

  /** Deletes the minute counts before `cutoff` (one statement). */
  async pruneMinutes(m: EntityManager, cutoff: Date): Promise<number> {
    const [, n] = (await m.query(`DELETE FROM ${tableName(m, ActivityMinutely)} WHERE minute < $1`, [cutoff])) as [
      unknown,
      number,
    ];
    return n;
  }

  /** Deletes the rows of `table` matching `where`, `chunk` rows a statement, until a statement deletes fewer. */
  private async chunked(
    m: EntityManager,
    table: string,
    key: string,
    where: string,
    params: unknown[],
  ): Promise<number> {
    let total = 0;
    for (;;) {
      const [, n] = (await m.query(
        `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${this.chunk})`,
        params,
      )) as [unknown, number];
      total += n;
      if (n < this.chunk) return total;
    }
  }
}
