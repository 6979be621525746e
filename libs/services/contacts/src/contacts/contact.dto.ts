import { IsEmailAddress } from '@herald/contracts';
import { ContactAddressInput } from '@herald/internal-contracts';
import { IsDataObject } from '@herald/contact-data';
import { CursorQueryDto } from '@herald/http';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

const EMAIL = { message: 'email must be a valid email address' };

/** `PUT /contacts`: the contact input every upsert shares (its rules live with the upsert call's contract). */
export class UpsertContactDto extends ContactAddressInput {}

export class UpdateContactDto {
  @IsOptional()
  @IsEmailAddress(EMAIL)
  @MaxLength(320)
  email?: string;

  @IsOptional()
  @IsBoolean()
  subscribed?: boolean;

  @IsOptional()
  @IsDataObject()
  data?: Record<string, unknown>;
}

export class ListContactsQueryDto extends CursorQueryDto {
  /** Case-insensitive substring of the email. */
  @IsOptional()
  @IsString()
  @MaxLength(320)
  search?: string;

  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'subscribed must be true or false' })
  subscribed?: boolean;
}

export class LookupContactsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500, { message: 'emails may list at most 500 addresses' })
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  emails!: string[];
}
