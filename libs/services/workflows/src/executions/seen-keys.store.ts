import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WorkflowSeenKey } from './execution.entity.js';

/** A data key seen in a scope (`contact`, `event:<name>`) with the type of its value. */
export interface SeenKey {
  projectId: string;
  scope: string;
  key: string;
  type: string;
}

/**
 * The data keys seen per project and scope, with the type first seen (GET /workflows/fields): a key
 * already known keeps its type.
 */
@Injectable()
export class SeenKeysStore {
  /** Records keys with one multi-row insert; the first type of a key stays. */
  async record(m: EntityManager, keys: SeenKey[]): Promise<void> {
    if (keys.length === 0) return;
    await m.query(
      `INSERT INTO ${tableName(m, WorkflowSeenKey)} (project_id, scope, key, type)
       SELECT p, s, k, t FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(p, s, k, t) ON CONFLICT DO NOTHING`,
      [keys.map((r) => r.projectId), keys.map((r) => r.scope), keys.map((r) => r.key), keys.map((r) => r.type)],
    );
  }

  /** The project's keys, by scope then key. */
  list(m: EntityManager, projectId: string): Promise<{ scope: string; key: string; type: string }[]> {
    return m.query(
      `SELECT scope, key, type FROM ${tableName(m, WorkflowSeenKey)} WHERE project_id = $1 ORDER BY scope, key`,
      [projectId],
    );
  }
}
