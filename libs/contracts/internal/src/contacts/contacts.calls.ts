import { IsDataObject } from '@herald/contact-data';
import { IsEmailAddress, type SubscriptionChangeReason } from '@herald/contracts';
import { isGeneratedId } from '@herald/core';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
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
  ValidateNested,
} from 'class-validator';
import { call, defineCalls } from '../call-contract.js';

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

/** A contact as contacts answers it (its API view). */
export interface ContactSnapshot {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A contact as written by its address: the body of `PUT /contacts` and of every upsert on another service's behalf. */
export class ContactAddressInput {
  @IsEmailAddress({ message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @IsOptional()
  @IsBoolean()
  subscribed?: boolean;

  @IsOptional()
  @IsDataObject()
  data?: Record<string, unknown>;
}

/** An upsert on behalf of another service (/v1/send, workflows, segments): the same data rules as every write. */
export class UpsertContactRequest extends ContactAddressInput {
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

export interface UpsertContactAnswer {
  contact: ContactSnapshot;
  created: boolean;
  /** `contact.*` keys that changed (`subscribed`, `data.plan`, …). */
  changedKeys: string[];
  /** Non-persistent values of the request (`{value, persistent: false}` unwrapped), for rendering. */
  transient: Record<string, unknown>;
  /** An earlier call with the same `idempotencyKey` applied the update: this one changed nothing. */
  duplicate: boolean;
}

/** Several upserts in one call, applied in order in one transaction (the recipients of a /v1/send). */
export class UpsertContactsRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => UpsertContactRequest)
  contacts!: UpsertContactRequest[];
}

export class SetSubscriptionRequest {
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

export class GetContactRequest {
  @IsString()
  @MaxLength(64)
  contactId!: string;
}

/** Up to 500 addresses whose contacts another service needs (sending's intake, /v1/send's preflight). */
export class FindContactsRequest {
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  emails!: string[];
}

export class ExportContactsRequest {
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
export interface ExportedContact extends ContactSnapshot {
  /** Custom events only (system events are no `event.tracked`), oldest first. */
  events: { id: string; name: string; at: string }[];
}

/**
 * What other services ask of contacts when the answer must be immediate: /v1/send's recipients,
 * workflows' steps, segments' members and backfill, subscription links. Contacts answers from its
 * own tables only.
 */
export const ContactsCalls = defineCalls('contacts', {
  upsert: call<UpsertContactRequest, UpsertContactAnswer>({ request: UpsertContactRequest }),
  upsertMany: call<UpsertContactsRequest, { results: UpsertContactAnswer[] }>({ request: UpsertContactsRequest }),
  setSubscription: call<SetSubscriptionRequest, { contact: ContactSnapshot; changed: boolean }>({
    request: SetSubscriptionRequest,
    errors: ['CONTACT_NOT_FOUND'],
  }),
  find: call<FindContactsRequest, { contacts: ContactSnapshot[] }>({ request: FindContactsRequest }),
  get: call<GetContactRequest, ContactSnapshot>({ request: GetContactRequest, errors: ['CONTACT_NOT_FOUND'] }),
  export: call<ExportContactsRequest, { contacts: ExportedContact[]; next: string | null }>({
    request: ExportContactsRequest,
  }),
});
