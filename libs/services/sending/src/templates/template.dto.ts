import { IsEmailAddress } from '@herald/contracts';
import { CursorQueryDto } from '@herald/http';
import { BODY_FORMATS, type BodyFormat } from '@herald/templating';
import { PartialType } from '@nestjs/mapped-types';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';

const NO_NEWLINE = /^[^\r\n]*$/;

/** Plunk writes a template's type in capitals (`MARKETING`, `TRANSACTIONAL`): the same types, read as Herald's. */
const plunkType = ({ value }: { value: unknown }) =>
  value === 'MARKETING' || value === 'TRANSACTIONAL' ? value.toLowerCase() : value;

export class CreateTemplateDto {
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsString()
  @Length(1, 998)
  @Matches(NO_NEWLINE, { message: 'subject must not contain line breaks' })
  subject!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(512 * 1024)
  body!: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsEmailAddress({ message: 'from must be a valid email address' })
  from?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Length(1, 200)
  @Matches(NO_NEWLINE, { message: 'fromName must not contain line breaks' })
  fromName?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsEmailAddress({ message: 'replyTo must be a valid email address' })
  replyTo?: string | null;

  @IsOptional()
  @Transform(plunkType)
  @IsIn(['marketing', 'transactional'])
  type?: 'marketing' | 'transactional';

  /** How `body` is written (default `html`); `markdown` is converted to HTML when an email is rendered. */
  @IsOptional()
  @IsIn(BODY_FORMATS)
  format?: BodyFormat;
}

/** PATCH: every field of a template, each optional (the same rules). */
export class UpdateTemplateDto extends PartialType(CreateTemplateDto) {}

export class ListTemplatesQueryDto extends CursorQueryDto {
  @IsOptional()
  @Transform(plunkType)
  @IsIn(['marketing', 'transactional'])
  type?: 'marketing' | 'transactional';
}
