import { ProjectDeleted, ProjectReset } from '@herald/contracts';
import { newId } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, type DataSource, type EntityManager } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { ApiKey, type ApiKeyKind } from './api-key.entity.js';
import { generateApiKey } from './api-keys.js';
import { Membership } from './membership.entity.js';
import { MANAGERS, requireMembership } from './project-access.js';
import type { IssuedKeys, IssuedTestKeys, ProjectView, UpdateProjectDto } from './project.dto.js';
import { Project } from './project.entity.js';
import { ProjectSetup } from './setup/project-setup.entity.js';

/** Projects of a dashboard user: creation, settings, key rotation, reset and deletion. */
@Injectable()
export class ProjectsService {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @InjectOutbox(GATEWAY) private readonly outbox: Outbox,
  ) {}

  async list(userId: string): Promise<ProjectView[]> {
    const memberships = await this.db
      .getRepository(Membership)
      .find({ where: { userId }, order: { createdAt: 'ASC' } });
    return Promise.all(memberships.map((m) => this.view(this.db.manager, m)));
  }

  /** Creates the project with the caller as OWNER and returns its live and test keys (shown only now). */
  async create(userId: string, name: string): Promise<ProjectView & IssuedKeys & IssuedTestKeys> {
    return this.db.transaction(async (m) => {
      const project = m.create(Project, { id: newId('prj'), name, disabled: false });
      await m.insert(Project, project);
      await m.insert(Membership, { projectId: project.id, userId, role: 'OWNER' });
      const keys = await this.issueKeys(m, project.id);
      const testKeys = await this.issueTestKeys(m, project.id);
      return {
        ...(await this.view(m, await m.findOneByOrFail(Membership, { projectId: project.id, userId }))),
        ...keys,
        ...testKeys,
      };
    });
  }

  async update(userId: string, projectId: string, dto: UpdateProjectDto): Promise<ProjectView> {
    return this.db.transaction(async (m) => {
      const membership = await requireMembership(m, userId, projectId, MANAGERS);
      await m.update(
        Project,
        { id: projectId },
        {
          ...(dto.name !== undefined ? { name: dto.name } : {}),
          ...(dto.disabled !== undefined ? { disabled: dto.disabled } : {}),
        },
      );
      return this.view(m, membership);
    });
  }

  /** Both live keys rotate; the old ones stop working with this commit. The test keys stay. */
  async regenerateKeys(userId: string, projectId: string): Promise<ProjectView & IssuedKeys> {
    return this.db.transaction(async (m) => {
      const membership = await requireMembership(m, userId, projectId, MANAGERS);
      await m.update(ApiKey, { projectId, testMode: false, revokedAt: IsNull() }, { revokedAt: new Date() });
      const keys = await this.issueKeys(m, projectId);
      return { ...(await this.view(m, membership)), ...keys };
    });
  }

  /**
   * Both test keys rotate (the live ones stay); a project created before test mode gets its first
   * pair here (a key is stored as its hash only, so it can be shown only when it is issued).
   */
  async regenerateTestKeys(userId: string, projectId: string): Promise<ProjectView & IssuedTestKeys> {
    return this.db.transaction(async (m) => {
      const membership = await requireMembership(m, userId, projectId, MANAGERS);
      await m.update(ApiKey, { projectId, testMode: true, revokedAt: IsNull() }, { revokedAt: new Date() });
      const keys = await this.issueTestKeys(m, projectId);
      return { ...(await this.view(m, membership)), ...keys };
    });
  }

  /** Wipes the project's data in every service (`project.reset`); the project, members and keys stay. */
  async reset(userId: string, projectId: string, correlationId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      await requireMembership(m, userId, projectId, ['OWNER']);
      await m.delete(ProjectSetup, { projectId });
      await this.outbox.add(
        m,
        ProjectReset.create({
          projectId,
          source: GATEWAY,
          payload: { requestedBy: userId },
          ...(correlationId ? { correlationId } : {}),
        }),
      );
    });
  }

  /** Deletes the project, its keys and memberships; every service drops its data (`project.deleted`). */
  async delete(userId: string, projectId: string, correlationId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      await requireMembership(m, userId, projectId, ['OWNER']);
      await m.delete(ApiKey, { projectId });
      await m.delete(Membership, { projectId });
      await m.delete(ProjectSetup, { projectId });
      await m.delete(Project, { id: projectId });
      await this.outbox.add(
        m,
        ProjectDeleted.create({
          projectId,
          source: GATEWAY,
          payload: { requestedBy: userId },
          ...(correlationId ? { correlationId } : {}),
        }),
      );
    });
  }

  private async issueKeys(m: EntityManager, projectId: string): Promise<IssuedKeys> {
    return {
      secretKey: await this.issue(m, projectId, 'secret', false),
      publicKey: await this.issue(m, projectId, 'public', false),
    };
  }

  private async issueTestKeys(m: EntityManager, projectId: string): Promise<IssuedTestKeys> {
    return {
      testSecretKey: await this.issue(m, projectId, 'secret', true),
      testPublicKey: await this.issue(m, projectId, 'public', true),
    };
  }

  private async issue(m: EntityManager, projectId: string, kind: ApiKeyKind, testMode: boolean): Promise<string> {
    const k = generateApiKey(kind, testMode);
    await m.insert(ApiKey, {
      id: newId('key'),
      projectId,
      kind,
      testMode,
      keyHash: k.hash,
      prefix: k.prefix,
      revokedAt: null,
    });
    return k.key;
  }

  private async view(m: EntityManager, membership: Membership): Promise<ProjectView> {
    const project = await m.findOneByOrFail(Project, { id: membership.projectId });
    const keys = await m.find(ApiKey, { where: { projectId: project.id, revokedAt: IsNull() } });
    const key = (kind: ApiKeyKind, testMode = false) => {
      const k = keys.find((x) => x.kind === kind && x.testMode === testMode);
      return k ? { prefix: k.prefix, createdAt: k.createdAt.toISOString() } : null;
    };
    return {
      id: project.id,
      name: project.name,
      disabled: project.disabled,
      role: membership.role,
      createdAt: project.createdAt.toISOString(),
      keys: {
        secret: key('secret'),
        public: key('public'),
        testSecret: key('secret', true),
        testPublic: key('public', true),
      },
    };
  }
}
