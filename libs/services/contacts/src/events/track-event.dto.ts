import { IsBoolean, IsEmail, IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Body of `POST /v1/track`. */
export class TrackEventDto {
  @IsEmail({}, { message: 'email must be a valid email address' }) @MaxLength(320)
  email!: string;

  @IsString() @MinLength(1) @MaxLength(255)
  event!: string;

  @IsOptional() @IsObject()
  data?: Record<string, unknown>;

  @IsOptional() @IsBoolean()
  subscribed?: boolean;
}
