import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Domain } from './domain.entity.js';

/** The SQL of a domain's row beyond loading and saving it; every method runs in the caller's transaction. */
@Injectable()
export class DomainsStore {
  /**
   * Moves the domain's check chain number on (retiring whatever link may still exist for the old
   * one) and answers the new number; undefined when the domain is gone.
   */
  async advanceCheckSeq(m: EntityManager, id: string): Promise<number | undefined> {
    const [updated] = (await m.query(
      `UPDATE ${tableName(m, Domain)} SET check_seq = check_seq + 1 WHERE id = $1 RETURNING check_seq`,
      [id],
    )) as [{ check_seq: number }[], number];
    return updated[0]?.check_seq;
  }
}
