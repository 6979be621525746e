import { FILTER_LIMITS } from '@herald/filters';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import type { ContactSnapshot } from '../contacts/contacts.calls.js';
import { call, defineCalls } from '../call-contract.js';

export const AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];

/** A campaign's audience as campaigns describes it (docs/campaigns.md, "Audience"). */
export class AudienceRequest {
  @IsIn(AUDIENCE_TYPES)
  audienceType!: AudienceType;

  @IsOptional()
  @IsString()
  @MaxLength(40)
  segmentId?: string;

  /** The filter of a FILTERED audience, as sent (checked by segments: field names follow `audienceFilter`). */
  @IsOptional()
  @IsObject()
  filter?: Record<string, unknown>;
}

export class AudiencePageRequest extends AudienceRequest {
  /** The last contact id of the previous page. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2000)
  limit: number = 500;
}

export interface AudiencePage {
  /**
   * The contacts the audience names, in contact id order, after `after`, with their subscription (the
   * snapshot sending renders with): campaigns delivers to the subscribed ones and records the others
   * in its ledger as `skipped: unsubscribed`.
   */
  contacts: ContactSnapshot[];
  /** The last id of this page when more may follow, null at the end. */
  next: string | null;
}

export class KnownSegmentsRequest {
  /** The `segment.<id>` references of one filter (at most its number of conditions, each a field's length). */
  @IsArray()
  @ArrayMaxSize(FILTER_LIMITS.maxNodes)
  @IsString({ each: true })
  @MaxLength(FILTER_LIMITS.maxFieldLength, { each: true })
  ids!: string[];
}

/**
 * What other services ask of segments at once: campaigns, whether an audience is valid and how large
 * it is now (a 422 names `segmentId` or `audienceFilter.…`), and the audience itself page by page at
 * the moment of sending; workflows, which segments a CONDITION step names are the project's.
 */
export const SegmentsCalls = defineCalls('segments', {
  // the audience is the project's contacts as written (engagement, reported by relays and recipients,
  // is not a write of the project: docs/consistency.md, "What may lag")
  checkAudience: call<AudienceRequest, { estimatedRecipients: number }>({
    request: AudienceRequest,
    observes: ['contacts', 'gateway'],
    timeoutMs: 30_000,
  }),
  audiencePage: call<AudiencePageRequest, AudiencePage>({
    request: AudiencePageRequest,
    observes: ['contacts', 'gateway'],
    timeoutMs: 30_000,
  }),
  // reads only segments' own tables
  known: call<KnownSegmentsRequest, { ids: string[] }>({ request: KnownSegmentsRequest }),
});
