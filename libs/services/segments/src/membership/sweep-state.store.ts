import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SweepState } from './segment.entity.js';

/**
 * The sweep chain's position (`sweep_state`, one row): the number of the link that may act
 * (docs/segments.md, "Sweep").
 */
@Injectable()
export class SweepStateStore {
  /** The current link's number (undefined before the chain's first link). */
  async current(m: EntityManager): Promise<number | undefined> {
    return (await m.findOneBy(SweepState, { id: 1 }))?.seq;
  }

  /** The current link's number, its row locked to the caller's commit. */
  async lock(m: EntityManager): Promise<number | undefined> {
    const [locked] = await m.query<{ seq: number }[]>(
      `SELECT seq FROM ${tableName(m, SweepState)} WHERE id = 1 FOR UPDATE`,
    );
    return locked?.seq;
  }

  /** Moves the chain to its next link (the first: 1); answers its number. */
  async advance(m: EntityManager): Promise<number> {
    const rows = await m.query<{ seq: number }[]>(
      `WITH up AS (INSERT INTO ${tableName(m, SweepState)} AS s (id, seq) VALUES (1, 1)
         ON CONFLICT (id) DO UPDATE SET seq = s.seq + 1 RETURNING seq) SELECT seq FROM up`,
    );
    return rows[0]!.seq;
  }
}
