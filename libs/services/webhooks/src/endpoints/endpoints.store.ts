import { keysetPage, type CursorPage, type CursorQueryDto } from '@herald/http';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS } from '../consumer.js';
import { Endpoint } from './endpoint.entity.js';

/** An endpoint as the fan-out needs it: who subscribes to what. */
export interface Subscriber {
  id: string;
  projectId: string;
  eventTypes: string[];
}

/** The SQL of endpoints beyond loading and saving one. */
@Injectable()
export class EndpointsStore {
  constructor(@InjectDataSource(WEBHOOKS) private readonly db: DataSource) {}

  /** A project's endpoints, newest first, a cursor page at a time. */
  page(projectId: string, q: CursorQueryDto): Promise<CursorPage<Record<string, unknown>>> {
    return keysetPage(this.db, q, {
      table: tableName(this.db, Endpoint),
      columns: 'id',
      filters: ['project_id = $1'],
      params: [projectId],
    });
  }

  /** Makes the project's endpoint creations queue behind each other until the caller commits (so a count holds). */
  async lockProject(m: EntityManager, projectId: string): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:endpoints:${projectId}`]);
  }

  /** How many endpoints a project has (under the transaction's lock of its rows when given a manager). */
  async countOf(m: EntityManager, projectId: string): Promise<number> {
    const [row] = (await m.query(`SELECT count(*) AS n FROM ${tableName(m, Endpoint)} WHERE project_id = $1`, [
      projectId,
    ])) as { n: string }[];
    return Number(row!.n);
  }

  /** The enabled endpoints of `projectIds` subscribed to any of `types`, in the caller's transaction. */
  async subscribers(m: EntityManager, projectIds: string[], types: string[]): Promise<Subscriber[]> {
    const rows = (await m.query(
      `SELECT id, project_id, event_types FROM ${tableName(m, Endpoint)}
        WHERE project_id = ANY($1::varchar[]) AND enabled AND event_types && $2::varchar[]
        ORDER BY id`,
      [projectIds, types],
    )) as { id: string; project_id: string; event_types: string[] }[];
    return rows.map((r) => ({ id: r.id, projectId: r.project_id, eventTypes: r.event_types }));
  }

  /** Marks the endpoint failing (a delivery of it is dead), keeping when it started failing. */
  async markFailing(m: EntityManager, id: string): Promise<void> {
    await m.query(
      `UPDATE ${tableName(m, Endpoint)} SET status = 'failing', failing_since = coalesce(failing_since, now()), updated_at = now()
        WHERE id = $1`,
      [id],
    );
  }

  /** Marks a failing endpoint active again (one of its deliveries succeeded); nothing when it is active. */
  async markActive(m: EntityManager, id: string): Promise<void> {
    await m.query(
      `UPDATE ${tableName(m, Endpoint)} SET status = 'active', failing_since = NULL, updated_at = now()
        WHERE id = $1 AND status = 'failing'`,
      [id],
    );
  }
}
