import { IsEmailAddress } from '@herald/contracts';
import { IsDataObject } from '@herald/contact-data';
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Body of `POST /v1/track` (and its dashboard alias `POST /events/track`). */
export class TrackEventDto {
  @IsEmailAddress({ message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  event!: string;

  /** Contact data (data rules apply) and event data. */
  @IsOptional()
  @IsDataObject()
  data?: Record<string, unknown>;

  /** Subscription of the contact; a new contact is subscribed unless this says false. */
  @IsOptional()
  @IsBoolean()
  subscribed?: boolean;
}
