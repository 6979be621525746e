import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/** What a resource can reference: a contact field (`data.plan`, `email`), a tracked event's name, a template id, a segment id. */
export const REFERENCE_KINDS = ['field', 'event', 'template', 'segment'] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** The resources that reference others: segment filters, campaigns, workflow triggers, conditions and steps. */
export const REFERRING_KINDS = ['segment', 'campaign', 'workflow'] as const;
export type ReferringKind = (typeof REFERRING_KINDS)[number];

/**
 * One reference: what it names, optionally where in the resource (a workflow step id), and whether
 * the resource is active (`active: true`: a SCHEDULED or SENDING campaign). Owners refuse to delete
 * what an active resource references (`DELETE /segments/:id` 409 `SEGMENT_IN_USE`). Added in v1 as
 * an optional field: a consumer that does not know it ignores it.
 */
export interface ResourceReference {
  kind: ReferenceKind;
  key: string;
  at?: string;
  active?: true;
}

const isReference = (value: unknown): boolean => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { kind, key, at, active, ...rest } = value as Record<string, unknown>;
  return (
    Object.keys(rest).length === 0 &&
    (active === undefined || active === true) &&
    (REFERENCE_KINDS as readonly unknown[]).includes(kind) &&
    typeof key === 'string' &&
    key.length > 0 &&
    key.length <= 300 &&
    (at === undefined || (typeof at === 'string' && at.length > 0 && at.length <= 100))
  );
};

/** Each element is `{kind, key, at?}` (a flat rule: contract payloads are validated without nested classes). */
const IsReference = (): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isResourceReference',
      validator: {
        validate: isReference,
        defaultMessage: () => `each reference must be {kind: ${REFERENCE_KINDS.join('|')}, key, at?, active?: true}`,
      },
    },
    { each: true },
  );

/**
 * Payload of `resource.references.changed`: everything one resource references now, published by
 * the service that owns the resource in the transaction that changes it (an empty list when it is
 * deleted). The publishing service is the envelope's `source`. Owners of what is referenced
 * (contacts: fields and events; sending: templates; segments: segments) keep the newest revision
 * of each resource and answer their usage routes from it (docs/adr/0011-usage-references.md).
 */
export class ResourceReferencesChangedV1 {
  @IsIn(REFERRING_KINDS) resourceKind!: ReferringKind;
  @IsString() @MinLength(1) @MaxLength(60) resourceId!: string;
  @IsString() @MaxLength(255) resourceName!: string;
  /** Grows with every change of the resource (a version column, or its update time in ms): the newest wins, whatever the order of delivery. */
  @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) revision!: number;
  @IsArray() @ArrayMaxSize(1000) @IsReference() references!: ResourceReference[];
  /**
   * The resource was deleted (its references are then `[]`). Added in v1 as an optional field: an
   * empty list alone cannot tell a deleted resource from one that references nothing, which a
   * consumer listing the resources themselves (analytics' campaigns) needs to know.
   */
  @IsOptional() @IsIn([true]) deleted?: true;
}

export const ResourceReferencesChanged = defineEvent({
  topic: Topics.ResourceReferencesChanged,
  version: 1,
  payload: ResourceReferencesChangedV1,
  key: (p) => p.resourceId,
});
