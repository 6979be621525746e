import { flattenLeaves, inferFieldType } from '@herald/contact-data';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ContactField } from './contact-field.entity.js';

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 50_000;

/**
 * Records the type of each custom field the first time a non-null value is seen in a project.
 * Types never change afterwards, so paths already known are remembered for a minute to keep the
 * hot write paths to one statement.
 */
@Injectable()
export class FieldRegistry {
  private readonly known = new Map<string, number>();

  async register(manager: EntityManager, projectId: string, data: Record<string, unknown>): Promise<void> {
    await this.registerMany(manager, projectId, [data]);
  }

  async registerMany(manager: EntityManager, projectId: string, datas: Record<string, unknown>[]): Promise<void> {
    const now = Date.now();
    const fresh = new Map<string, string>();
    for (const data of datas) {
      for (const [path, value] of flattenLeaves(data)) {
        const type = inferFieldType(value);
        if (!type || fresh.has(path)) continue;
        const seen = this.known.get(`${projectId}\u0000${path}`);
        if (seen !== undefined && now - seen < CACHE_TTL_MS) continue;
        fresh.set(path, type);
      }
    }
    if (fresh.size === 0) return;
    await manager.query(
      `INSERT INTO ${tableName(manager, ContactField)} (project_id, path, type)
       SELECT $1, p, t FROM unnest($2::varchar[], $3::varchar[]) AS x(p, t)
       ON CONFLICT (project_id, path) DO NOTHING`,
      [projectId, [...fresh.keys()], [...fresh.values()]],
    );
    if (this.known.size > CACHE_MAX) this.known.clear();
    for (const path of fresh.keys()) this.known.set(`${projectId}\u0000${path}`, now);
  }

  forget(projectId: string, path?: string): void {
    for (const key of this.known.keys()) if (key.startsWith(`${projectId}\u0000${path ?? ''}`)) this.known.delete(key);
  }
}
