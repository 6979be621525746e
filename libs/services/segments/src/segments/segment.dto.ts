import {
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

/** The most members `POST /segments/count` previews. */
export const MAX_PREVIEW = 20;

/**
 * `POST /segments/count`: a filter to count, unsaved (the dashboard's live count); with `preview`,
 * also its first members (contact id order, as `GET /segments/:id/contacts` lists them).
 */
export class CountFilterDto {
  @IsOptional()
  @IsObject({ message: 'filters must be a filter object' })
  filters?: unknown;

  @IsOptional()
  @IsObject({ message: 'condition must be a filter object' })
  condition?: unknown;

  @IsOptional()
  @IsInt({ message: 'preview must be a whole number' })
  @Min(0, { message: `preview must be between 0 and ${MAX_PREVIEW}` })
  @Max(MAX_PREVIEW, { message: `preview must be between 0 and ${MAX_PREVIEW}` })
  preview?: number;
}
