import type { ProjectRole } from '@herald/contracts';
import { queryPrepared, tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { ApiKey, type ApiKeyKind } from '../projects/api-key.entity.js';
import { Membership } from '../projects/membership.entity.js';
import { Project } from '../projects/project.entity.js';

export interface KeyOwner {
  projectId: string;
  kind: ApiKeyKind;
  /** A test key (`sk_test_…`, `pk_test_…`, docs/test-mode.md). */
  testMode: boolean;
  disabled: boolean;
}

export interface ProjectMember {
  role: ProjectRole;
  disabled: boolean;
}

/** The rows a credential is checked against: live API keys and memberships, each with its project's `disabled`. */
@Injectable()
export class CredentialsStore {
  private readonly keySql: string;
  private readonly memberSql: string;

  constructor(@InjectDataSource(GATEWAY) private readonly db: DataSource) {
    this.keySql = `SELECT k.key_hash, k.project_id, k.kind, k.test_mode, p.disabled FROM ${tableName(db, ApiKey)} k JOIN ${tableName(db, Project)} p ON p.id = k.project_id
                    WHERE k.key_hash = ANY($1::bpchar[]) AND k.revoked_at IS NULL`;
    this.memberSql = `SELECT m.role, p.disabled FROM ${tableName(db, Membership)} m JOIN ${tableName(db, Project)} p ON p.id = m.project_id
                       WHERE m.user_id = $1 AND m.project_id = $2`;
  }

  /** The owners of the live keys among these hashes, by hash (one prepared, indexed query). */
  async keyOwners(hashes: string[]): Promise<Map<string, KeyOwner>> {
    const rows = await queryPrepared<{
      key_hash: string;
      project_id: string;
      kind: ApiKeyKind;
      test_mode: boolean;
      disabled: boolean;
    }>(this.db, this.keySql, [[...new Set(hashes)]]);
    return new Map(
      rows.map((r) => [
        r.key_hash,
        { projectId: r.project_id, kind: r.kind, testMode: r.test_mode, disabled: r.disabled },
      ]),
    );
  }

  async member(userId: string, projectId: string): Promise<ProjectMember | null> {
    const rows: ProjectMember[] = await this.db.query(this.memberSql, [userId, projectId]);
    return rows[0] ?? null;
  }
}
