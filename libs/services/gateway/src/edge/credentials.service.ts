import type { Principal, ProjectRole } from '@herald/contracts';
import { MicroBatcher } from '@herald/core';
import { queryPrepared, tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { ApiKey, type ApiKeyKind } from '../projects/api-key.entity.js';
import { API_KEY_PATTERN, hashApiKey } from '../projects/api-keys.js';
import { Membership } from '../projects/membership.entity.js';
import { Project } from '../projects/project.entity.js';

export interface KeyOwner {
  projectId: string;
  kind: ApiKeyKind;
  disabled: boolean;
}

export interface ProjectMember {
  role: ProjectRole;
  disabled: boolean;
}

/**
 * Looks up who a credential belongs to, with no cache (a rotated or revoked key stops at once, on
 * every replica). Key lookups of concurrent requests are grouped: those that arrive while a lookup
 * is in flight go together in the next one (one indexed query for many requests), and each is
 * answered by a query sent after it arrived, so it is as fresh as a lookup of its own.
 */
@Injectable()
export class CredentialsService {
  private readonly keySql: string;
  private readonly memberSql: string;
  private readonly perRequest = new WeakMap<object, { key: string; owner: Promise<KeyOwner | null> }>();
  private readonly keyLookups = new MicroBatcher<string, KeyOwner | null>((hashes) => this.lookupKeys(hashes), {
    maxBatch: 500,
    maxConcurrent: 2,
  });

  constructor(@InjectDataSource(GATEWAY) private readonly db: DataSource) {
    this.keySql = `SELECT k.key_hash, k.project_id, k.kind, p.disabled FROM ${tableName(db, ApiKey)} k JOIN ${tableName(db, Project)} p ON p.id = k.project_id
                    WHERE k.key_hash = ANY($1::bpchar[]) AND k.revoked_at IS NULL`;
    this.memberSql = `SELECT m.role, p.disabled FROM ${tableName(db, Membership)} m JOIN ${tableName(db, Project)} p ON p.id = m.project_id
                       WHERE m.user_id = $1 AND m.project_id = $2`;
  }

  /**
   * The owner of `key` for one request: looked up once, whoever asks first (the early check before
   * the body is read, then the guard), so authenticating before the body costs no second query.
   */
  keyOwnerFor(request: object, key: string): Promise<KeyOwner | null> {
    const known = this.perRequest.get(request);
    if (known?.key === key) return known.owner;
    const owner = this.keyOwner(key);
    this.perRequest.set(request, { key, owner });
    return owner;
  }

  async keyOwner(key: string): Promise<KeyOwner | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    return this.keyLookups.submit(hashApiKey(key));
  }

  private async lookupKeys(hashes: string[]): Promise<PromiseSettledResult<KeyOwner | null>[]> {
    const rows = await queryPrepared<{ key_hash: string; project_id: string; kind: ApiKeyKind; disabled: boolean }>(
      this.db,
      this.keySql,
      [[...new Set(hashes)]],
    );
    const owners = new Map(
      rows.map((r) => [r.key_hash, { projectId: r.project_id, kind: r.kind, disabled: r.disabled }]),
    );
    return hashes.map((h) => ({ status: 'fulfilled', value: owners.get(h) ?? null }));
  }

  async member(userId: string, projectId: string): Promise<ProjectMember | null> {
    const rows: ProjectMember[] = await this.db.query(this.memberSql, [userId, projectId]);
    return rows[0] ?? null;
  }
}

export type { Principal };
