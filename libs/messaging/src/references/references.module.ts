import {
  Topics,
  type EventEnvelope,
  type ReferenceKind,
  type ReferringKind,
  type ResourceReferencesChangedV1,
} from '@herald/contracts';
import { tableName } from '@herald/persistence';
import { Controller, Inject, Module, type DynamicModule, type Type } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventContext } from '../consumer/event-context.js';
import { OnEvent } from '../consumer/on-event.decorator.js';
import { ResourceReferences } from './resource-references.entity.js';

/** A resource that references something, as the usage routes list it. */
export interface UsageRef {
  id: string;
  name: string;
  /** Where in the resource (a workflow step id), when the reference said. */
  at?: string;
}

/** Who references something, by kind of resource: the answer of the usage routes. */
export interface Usage {
  segments: UsageRef[];
  campaigns: UsageRef[];
  workflows: UsageRef[];
}

const BUCKET: Record<ReferringKind, keyof Usage> = {
  segment: 'segments',
  campaign: 'campaigns',
  workflow: 'workflows',
};

/** The usage lookups of an owner, answered from its references table. */
export class ReferenceDirectory {
  private readonly table: string;

  constructor(private readonly db: DataSource) {
    this.table = tableName(db, ResourceReferences);
  }

  /** Every resource of the project that references `key` of `kind` now, by kind of resource, in name order. */
  async usage(projectId: string, kind: ReferenceKind, key: string): Promise<Usage> {
    const rows: { resource_kind: ReferringKind; resource_id: string; resource_name: string; at: string | null }[] =
      await this.db.query(
        `SELECT r.resource_kind, r.resource_id, r.resource_name, ref->>'at' AS at
           FROM ${this.table} r, jsonb_array_elements(r.refs) ref
          WHERE r.project_id = $1 AND r.refs @> $2::jsonb AND ref->>'kind' = $3 AND ref->>'key' = $4
          ORDER BY r.resource_name, r.resource_id, at`,
        [projectId, JSON.stringify([{ kind, key }]), kind, key],
      );
    const usage: Usage = { segments: [], campaigns: [], workflows: [] };
    for (const r of rows)
      usage[BUCKET[r.resource_kind]].push({ id: r.resource_id, name: r.resource_name, ...(r.at ? { at: r.at } : {}) });
    return usage;
  }

  /**
   * The active resources (`active: true` on the reference: a SCHEDULED or SENDING campaign, an
   * enabled workflow) of the project that reference `key` of `kind` now, in name order: what makes
   * deleting it a 409.
   */
  async activeUsers(
    projectId: string,
    kind: ReferenceKind,
    key: string,
    manager?: EntityManager,
  ): Promise<(UsageRef & { resourceKind: string })[]> {
    const rows: { resource_kind: string; resource_id: string; resource_name: string }[] = await (
      manager ?? this.db.manager
    ).query(
      `SELECT r.resource_kind, r.resource_id, r.resource_name FROM ${this.table} r
        WHERE r.project_id = $1 AND r.refs @> $2::jsonb ORDER BY r.resource_name, r.resource_id`,
      [projectId, JSON.stringify([{ kind, key, active: true }])],
    );
    return rows.map((r) => ({ resourceKind: r.resource_kind, id: r.resource_id, name: r.resource_name }));
  }
}

/** Injection token of an owner's directory. */
export const referenceDirectoryToken = (service: string): string => `herald:reference-directory:${service}`;
export const InjectReferences = (service: string): ParameterDecorator => Inject(referenceDirectoryToken(service));

/**
 * Keeps the owner's references table from `resource.references.changed`: per resource, the newest
 * revision wins (an older or repeated one changes nothing, whatever the delivery order); only
 * references of the kinds this service owns are kept.
 */
function referencesHandler(service: string, kinds: readonly ReferenceKind[]): Type {
  @Controller()
  class ReferencesHandler {
    @OnEvent(service, Topics.ResourceReferencesChanged)
    async onChanged(
      @Payload() event: EventEnvelope<ResourceReferencesChangedV1>,
      @Ctx() ctx: EventContext,
    ): Promise<void> {
      const p = event.payload;
      const owned = p.references.filter((r) => kinds.includes(r.kind));
      await ctx.manager.query(
        `INSERT INTO ${tableName(ctx.manager, ResourceReferences)} AS t
           (project_id, resource_kind, resource_id, source, resource_name, revision, refs, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now())
         ON CONFLICT (project_id, resource_kind, resource_id) DO UPDATE
           SET source = EXCLUDED.source, resource_name = EXCLUDED.resource_name, revision = EXCLUDED.revision,
               refs = EXCLUDED.refs, updated_at = now()
         WHERE t.revision < EXCLUDED.revision`,
        [
          event.projectId,
          p.resourceKind,
          p.resourceId,
          event.source,
          p.resourceName,
          p.revision,
          JSON.stringify(owned),
        ],
      );
    }
  }
  Object.defineProperty(ReferencesHandler, 'name', { value: `ReferencesHandler_${service}` });
  return ReferencesHandler;
}

/**
 * Mounted by each service that owns something others reference (contacts: fields and events;
 * sending: templates; later segments: segments). Add `ResourceReferences` to the service's entities
 * and its `projectData` tables, and a migration creating the table (copy contacts' one).
 */
@Module({})
export class ReferencesModule {
  static forOwner(service: string, options: { kinds: readonly ReferenceKind[] }): DynamicModule {
    return {
      module: ReferencesModule,
      controllers: [referencesHandler(service, options.kinds)],
      providers: [
        {
          provide: referenceDirectoryToken(service),
          inject: [getDataSourceToken(service)],
          useFactory: (ds: DataSource) => new ReferenceDirectory(ds),
        },
      ],
      exports: [referenceDirectoryToken(service)],
    };
  }
}
