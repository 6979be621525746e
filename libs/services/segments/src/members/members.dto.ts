import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** `GET /segments/:id/contacts`: the page asked for. */
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

/** `POST /segments/:id/members` (a static segment). */
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

/** `DELETE /segments/:id/members` (a static segment). */
export class RemoveMembersDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'emails must list at least one address' })
  @ArrayMaxSize(1000, { message: 'emails may list at most 1000 addresses' })
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  emails!: string[];
}
