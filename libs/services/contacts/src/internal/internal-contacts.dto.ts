import type { SubscriptionChangeReason } from '@herald/contracts';
import { isGeneratedId } from '@herald/core';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { UpsertContactDto } from '../contacts/contact.dto.js';
import type { ContactView } from '../contacts/contact-view.js';

/** Why another service changes a contact: carried by contact.subscribed / contact.unsubscribed. */
export const SERVICE_REASONS: readonly SubscriptionChangeReason[] = [
  'send',
  'workflow',
  'unsubscribe-link',
  'subscribe-link',
  'bounce',
  'complaint',
  /** segments: `createMissing` of POST /segments/:id/members. */
  'segment',
];

/** An upsert on behalf of another service (/v1/send, workflows): the same data rules as every write. */
export class ServiceUpsertContactDto extends UpsertContactDto {
  /** Subscription of a contact this call creates when `subscribed` is absent (false for /v1/send). */
  @IsBoolean()
  subscribedIfNew!: boolean;

  @IsIn(SERVICE_REASONS)
  reason!: SubscriptionChangeReason;

  /**
   * The id a contact this call creates gets (`cnt_` and 26 characters, as contacts makes them): /v1/send
   * renders every recipient's email before it writes anything, with the id it proposes here. Ignored
   * when the address already has a contact, or when the id is another contact's (a fresh one is drawn).
   */
  @IsOptional()
  @IsString()
  @ValidateBy({
    name: 'isContactId',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isGeneratedId('cnt', value),
      defaultMessage: () => 'idIfNew must be a contact id (cnt_ and 26 characters)',
    },
  })
  idIfNew?: string;

  /** Applies the update at most once per key and project (a workflow's step run id). */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  idempotencyKey?: string;
}

export class ServiceSubscriptionDto {
  @IsString()
  @MaxLength(64)
  contactId!: string;

  @IsBoolean()
  subscribed!: boolean;

  @IsIn(SERVICE_REASONS)
  reason!: SubscriptionChangeReason;

  /** The email whose link made the change, and its campaign: carried by the subscription event. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  emailId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  campaignId?: string;
}

export class ServiceGetContactDto {
  @IsString()
  @MaxLength(64)
  contactId!: string;

  @IsOptional()
  @IsString()
  fields?: string;
}

/** Up to 500 addresses whose contacts another service needs (sending's internal intake). */
export class ServiceFindContactsDto {
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  emails!: string[];
}

export interface ServiceUpsertResult {
  contact: ContactView;
  created: boolean;
  /** `contact.*` keys that changed (`subscribed`, `data.plan`, …). */
  changedKeys: string[];
  /** Non-persistent values of the request (`{value, persistent: false}` unwrapped), for rendering. */
  transient: Record<string, unknown>;
  /** An earlier call with the same `idempotencyKey` applied the update: this one changed nothing. */
  duplicate: boolean;
}

export class ServiceExportContactsDto {
  /** The last contact id of the previous page (pages are in contact id order). */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

/** One contact as the segments read model needs it, with its custom tracked events. */
export interface ExportedContact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** Custom events only (system events are no `event.tracked`), oldest first. */
  events: { id: string; name: string; at: string }[];
}
