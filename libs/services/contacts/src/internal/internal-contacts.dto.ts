import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { UpsertContactDto } from '../contacts/contact.dto.js';
import type { ContactView } from '../contacts/contact-view.js';

/** Why another service changes a contact: carried by contact.subscribed / contact.unsubscribed. */
export const SERVICE_REASONS = ['send', 'workflow', 'unsubscribe-link', 'subscribe-link', 'bounce', 'complaint'] as const;

/** An upsert on behalf of another service (/v1/send, workflows): the same data rules as every write. */
export class ServiceUpsertContactDto extends UpsertContactDto {
  /** Subscription of a contact this call creates when `subscribed` is absent (false for /v1/send). */
  @IsBoolean()
  subscribedIfNew!: boolean;

  @IsIn(SERVICE_REASONS)
  reason!: (typeof SERVICE_REASONS)[number];
}

export class ServiceSubscriptionDto {
  @IsString() @MaxLength(64)
  contactId!: string;

  @IsBoolean()
  subscribed!: boolean;

  @IsIn(SERVICE_REASONS)
  reason!: (typeof SERVICE_REASONS)[number];
}

export class ServiceGetContactDto {
  @IsString() @MaxLength(64)
  contactId!: string;

  @IsOptional() @IsString()
  fields?: string;
}

export interface ServiceUpsertResult {
  contact: ContactView;
  created: boolean;
  /** `contact.*` keys that changed (`subscribed`, `data.plan`, …). */
  changedKeys: string[];
  /** Non-persistent values of the request (`{value, persistent: false}` unwrapped), for rendering. */
  transient: Record<string, unknown>;
}

