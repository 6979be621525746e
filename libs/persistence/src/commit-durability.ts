import type { EntityManager } from 'typeorm';

/**
 * An expression that, evaluated in any statement of a transaction (or in a statement that is its own
 * transaction), makes that transaction's commit return without waiting for its WAL to reach the
 * disk (`synchronous_commit = off` for it alone). Safe where a durable commit on the same PostgreSQL
 * server follows before anyone learns of the write: PostgreSQL writes the WAL in order, so that
 * flush makes this commit durable too, and a crash before it loses this write with everything that
 * came after it, never alone. Otherwise the WAL writer flushes it within three `wal_writer_delay`s
 * (600 ms by default).
 */
export const NO_FLUSH_WAIT = "set_config('synchronous_commit', 'off', true)";

/** How a write commits: `flushWait: false` only where a durable commit on the same server follows it (`NO_FLUSH_WAIT`). */
export interface CommitOptions {
  flushWait?: boolean;
}

/** Makes the commit of `m`'s transaction return without waiting for the disk (`NO_FLUSH_WAIT`), in one statement of its own. */
export async function commitWithoutFlushWait(m: EntityManager): Promise<void> {
  await m.query(`SELECT ${NO_FLUSH_WAIT}`);
}
