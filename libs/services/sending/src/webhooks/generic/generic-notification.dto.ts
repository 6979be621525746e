import { Transform } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';

/** One notification in the generic webhook format (see docs/webhooks.md). */
export class GenericNotificationDto {
  /** Unique at the relay: a repeat of the same id changes nothing. */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  id!: string;

  @IsIn(['bounce', 'complaint', 'delivery'])
  type!: 'bounce' | 'complaint' | 'delivery';

  /** The recipient the notification is about (surrounding spaces are ignored). */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsEmail({ allow_utf8_local_part: true }, { message: 'email must be an email address' })
  email!: string;

  /** Required for bounces: permanent (hard: the address is suppressed) or transient (soft). */
  @ValidateIf((o: GenericNotificationDto) => o.type === 'bounce' || o.bounceType !== undefined)
  @IsDefined({ message: 'bounceType is required when type is bounce' })
  @IsIn(['permanent', 'transient'])
  bounceType?: 'permanent' | 'transient';

  /** Message-ID header of the original email, with or without angle brackets. */
  @IsOptional()
  @IsString()
  @MaxLength(998)
  messageId?: string;

  /** Herald's email id, when the relay knows it. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  emailId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string;

  /** ISO 8601; default: when Herald received it. */
  @IsOptional()
  @IsISO8601({ strict: true })
  occurredAt?: string;
}

/** Most notifications one request may carry. */
export const MAX_GENERIC_BATCH = 1000;
