import type { Principal, ProjectRole } from '@herald/contracts';
import { tableName } from '@herald/persistence';
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

/** Looks up who a credential belongs to: one indexed query per request, no cache (rotation is immediate). */
@Injectable()
export class CredentialsService {
  private readonly keySql: string;
  private readonly memberSql: string;

  constructor(@InjectDataSource(GATEWAY) private readonly db: DataSource) {
    this.keySql = `SELECT k.project_id, k.kind, p.disabled FROM ${tableName(db, ApiKey)} k JOIN ${tableName(db, Project)} p ON p.id = k.project_id
                    WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;
    this.memberSql = `SELECT m.role, p.disabled FROM ${tableName(db, Membership)} m JOIN ${tableName(db, Project)} p ON p.id = m.project_id
                       WHERE m.user_id = $1 AND m.project_id = $2`;
  }

  async keyOwner(key: string): Promise<KeyOwner | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    const rows: { project_id: string; kind: ApiKeyKind; disabled: boolean }[] = await this.db.query(this.keySql, [hashApiKey(key)]);
    const row = rows[0];
    return row ? { projectId: row.project_id, kind: row.kind, disabled: row.disabled } : null;
  }

  async member(userId: string, projectId: string): Promise<ProjectMember | null> {
    const rows: ProjectMember[] = await this.db.query(this.memberSql, [userId, projectId]);
    return rows[0] ?? null;
  }
}

export type { Principal };
