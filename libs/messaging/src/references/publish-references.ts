import {
  ResourceReferencesChanged,
  type EventEnvelope,
  type ReferringKind,
  type ResourceReference,
  type ResourceReferencesChangedV1,
} from '@herald/contracts';
import type { EntityManager } from 'typeorm';
import type { Outbox } from '../outbox/outbox.js';

export interface ReferringResource {
  projectId: string;
  kind: ReferringKind;
  id: string;
  name: string;
  /** Grows with every change: a `@VersionColumn`, or the update time in ms when a row lock orders the writes. */
  revision: number;
  /** Published by the deleting transaction: the event says so (`deleted: true`) and lists no references. */
  deleted?: boolean;
}

/**
 * For the services whose resources reference others (segments, campaigns, workflows): call it in
 * the transaction that creates, changes or deletes the resource, with everything it references now
 * (`[]` and `deleted: true` on delete). The event commits with the change (outbox) and reaches every owner, in either
 * mode; each owner keeps the newest revision and answers its usage routes from it.
 */
export async function publishReferences(
  outbox: Outbox,
  manager: EntityManager,
  source: string,
  resource: ReferringResource,
  references: ResourceReference[],
  trace: { correlationId?: string; causationId?: string } = {},
): Promise<EventEnvelope<ResourceReferencesChangedV1>> {
  const unique = new Map(
    references.map((r) => [`${r.kind}\u0000${r.key}\u0000${r.at ?? ''}\u0000${r.active ? 1 : 0}`, r]),
  );
  const event = ResourceReferencesChanged.create({
    projectId: resource.projectId,
    source,
    payload: {
      resourceKind: resource.kind,
      resourceId: resource.id,
      resourceName: resource.name,
      revision: resource.revision,
      references: resource.deleted
        ? []
        : [...unique.values()].map((r) => ({
            kind: r.kind,
            key: r.key,
            ...(r.at ? { at: r.at } : {}),
            ...(r.active ? { active: true as const } : {}),
          })),
      ...(resource.deleted ? { deleted: true as const } : {}),
    },
    ...trace,
  });
  await outbox.add(manager, event);
  return event;
}
