import { flattenLeaves, inferFieldType } from '@herald/contact-data';
import type { SingleStatementWrite } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { FieldTypeRecorder } from '../contacts/field-type-recorder.js';
import { CONTACTS } from '../consumer.js';
import { FieldsStore } from './fields.store.js';

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 50_000;

/**
 * Records the type of each custom field the first time a non-null value is seen in a project.
 * Types never change afterwards, so paths already known are remembered for a minute to keep the
 * hot write paths to one statement. The contact write path reaches it as its FieldTypeRecorder;
 * the SQL is the FieldsStore's.
 */
@Injectable()
export class FieldRegistry implements FieldTypeRecorder {
  private readonly known = new Map<string, number>();

  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    // stores hold no state: one built by hand (test/integration does) gets its own
    private readonly store: FieldsStore = new FieldsStore(),
  ) {}

  async register(manager: EntityManager, projectId: string, data: Record<string, unknown>): Promise<void> {
    await this.registerMany(manager, projectId, [data]);
  }

  async registerMany(manager: EntityManager, projectId: string, datas: Record<string, unknown>[]): Promise<void> {
    const fresh = this.unknownPaths(projectId, datas);
    if (fresh.size === 0) return;
    await this.store.register(manager, projectId, fresh);
    this.remember(projectId, fresh);
  }

  /** `registerMany` as a part of a single-statement write: the paths are remembered once it committed. */
  registerIn(write: SingleStatementWrite, projectId: string, datas: Record<string, unknown>[]): void {
    const fresh = this.unknownPaths(projectId, datas);
    if (fresh.size === 0) return;
    write.with('fields', this.store.registerSql(this.db, projectId, fresh, write.param));
    write.onCommit(() => this.remember(projectId, fresh));
  }

  /** Paths of `datas` with a typed value, and their types, not registered in the last minute. */
  private unknownPaths(projectId: string, datas: Record<string, unknown>[]): Map<string, string> {
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
    return fresh;
  }

  private remember(projectId: string, fresh: Map<string, string>): void {
    const now = Date.now();
    if (this.known.size > CACHE_MAX) this.known.clear();
    for (const path of fresh.keys()) this.known.set(`${projectId}\u0000${path}`, now);
  }

  forget(projectId: string, path?: string): void {
    for (const key of this.known.keys()) if (key.startsWith(`${projectId}\u0000${path ?? ''}`)) this.known.delete(key);
  }
}
