import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Email } from '../emails/email.entity.js';
import { Suppression } from '../emails/suppression.entity.js';

/** An email already stored under a key: its id, and what became of it. */
export interface StoredEmail {
  id: string;
  status: string;
  error: string | null;
}

/** Rows inserted per statement. */
const INSERT_CHUNK = 100;

/**
 * The intake's SQL: the emails stored under campaigns' and workflows' keys (unique per project for
 * good: the `(project_id, source_key)` index), the suppressed addresses among the recipients, the
 * insert that leaves a taken key to its first email, and the wake-up of the delivery worker.
 */
@Injectable()
export class IntakeStore {
  /** The emails already stored under these keys of the project, by key. */
  async stored(m: EntityManager, projectId: string, keys: string[]): Promise<Map<string, StoredEmail>> {
    if (keys.length === 0) return new Map();
    const rows: (StoredEmail & { source_key: string })[] = await m.query(
      `SELECT id, status, error, source_key FROM ${tableName(m, Email)} WHERE project_id = $1 AND source_key = ANY($2::varchar[])`,
      [projectId, [...new Set(keys)]],
    );
    return new Map(rows.map((r) => [r.source_key, { id: r.id, status: r.status, error: r.error }]));
  }

  /** Which of these addresses are on the project's suppression list. */
  async suppressed(m: EntityManager, projectId: string, emails: string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const rows: { email: string }[] = await m.query(
      `SELECT email FROM ${tableName(m, Suppression)} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, emails],
    );
    return new Set(rows.map((r) => r.email));
  }

  /**
   * Inserts the emails in the order given, 100 a statement; an email whose key is taken (by an earlier
   * call, or one racing with this one: the insert waits for its commit) is left out. Answers the keys
   * inserted.
   */
  async insertNew(m: EntityManager, rows: Email[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
      const result = await m
        .createQueryBuilder()
        .insert()
        .into(Email)
        .values(rows.slice(at, at + INSERT_CHUNK))
        .orIgnore()
        .returning('source_key')
        .updateEntity(false)
        .execute();
      for (const r of result.raw as { source_key: string }[]) inserted.add(r.source_key);
    }
    return inserted;
  }

  /** Wakes whoever listens on `channel` once the caller's transaction commits (the delivery worker). */
  async notify(m: EntityManager, channel: string): Promise<void> {
    await m.query(`SELECT pg_notify($1, '')`, [channel]);
  }
}
