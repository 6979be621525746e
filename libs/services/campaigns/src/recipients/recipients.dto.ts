import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import {
  RECIPIENT_STATUSES,
  SKIP_REASONS,
  type RecipientStatus,
  type SkipReason,
} from '../campaigns/campaign.entity.js';

export class RecipientsFilterDto {
  @IsOptional()
  @IsIn(RECIPIENT_STATUSES, { message: `status must be one of ${RECIPIENT_STATUSES.join(', ')}` })
  status?: RecipientStatus;

  @IsOptional()
  @IsIn(SKIP_REASONS, { message: `reason must be one of ${SKIP_REASONS.join(', ')}` })
  reason?: SkipReason;
}

export class RecipientsQueryDto extends RecipientsFilterDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be between 1 and 100' })
  @Max(100, { message: 'limit must be between 1 and 100' })
  limit: number = 20;

  @IsOptional()
  @Matches(/^\d{1,15}$/, { message: 'cursor must be a value returned by a previous page' })
  cursor?: string;
}
