import { WEBHOOK_EVENT_TYPES } from '@herald/contracts';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';

const EVENT_TYPES_MESSAGE = {
  each: true,
  message: `each value in eventTypes must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
};

export class CreateWebhookEndpointDto {
  /** Where deliveries are POSTed: an `https://` URL of a public host. */
  @IsString()
  @MaxLength(2048)
  url!: string;

  /** The event types to deliver, at least one (docs/webhooks-out.md). */
  @IsArray()
  @ArrayMinSize(1, { message: 'eventTypes must name at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, EVENT_TYPES_MESSAGE)
  eventTypes!: string[];

  /** Default true: deliveries start at once. */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWebhookEndpointDto {
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'eventTypes must name at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, EVENT_TYPES_MESSAGE)
  eventTypes?: string[];

  /** false: nothing is delivered (new events are not kept for it); true again: its pending deliveries go out. */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /** null clears it. */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;
}
