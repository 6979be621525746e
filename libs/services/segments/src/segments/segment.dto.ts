import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';

export const SEGMENT_TYPES = ['DYNAMIC', 'STATIC'] as const;

export class CreateSegmentDto {
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  name!: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(500, { message: 'description must be at most 500 characters' })
  description?: string | null;

  @IsOptional()
  @IsIn(SEGMENT_TYPES, { message: 'type must be DYNAMIC or STATIC' })
  type?: (typeof SEGMENT_TYPES)[number];

  /** The filter (spec name); `condition` is the same under the endpoint listing's name. Checked by parseFilter. */
  @IsOptional()
  @IsObject({ message: 'filters must be a filter object' })
  filters?: unknown;

  @IsOptional()
  @IsObject({ message: 'condition must be a filter object' })
  condition?: unknown;

  @IsOptional()
  @IsBoolean()
  trackMembership?: boolean;
}

export class UpdateSegmentDto {
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  name?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(500, { message: 'description must be at most 500 characters' })
  description?: string | null;

  @IsOptional()
  @IsObject({ message: 'filters must be a filter object' })
  filters?: unknown;

  @IsOptional()
  @IsObject({ message: 'condition must be a filter object' })
  condition?: unknown;

  @IsOptional()
  @IsBoolean()
  trackMembership?: boolean;
}

export class MembersPageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be an integer' })
  @Min(1, { message: 'page must be at least 1' })
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be an integer' })
  @Min(1, { message: 'pageSize must be between 1 and 100' })
  @Max(100, { message: 'pageSize must be between 1 and 100' })
  pageSize: number = 20;
}

export class AddMembersDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'emails must list at least one address' })
  @ArrayMaxSize(1000, { message: 'emails may list at most 1000 addresses' })
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  emails!: string[];

  @IsOptional()
  @IsBoolean()
  createMissing?: boolean;

  /** Subscription of the contacts createMissing creates (default true). */
  @IsOptional()
  @IsBoolean()
  subscribed?: boolean;
}

export class RemoveMembersDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'emails must list at least one address' })
  @ArrayMaxSize(1000, { message: 'emails may list at most 1000 addresses' })
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  emails!: string[];
}
