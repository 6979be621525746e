import { CursorQueryDto } from '@herald/http';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { EMAIL_STATUSES, type PublicEmailStatus } from './email-view.js';

/** `GET /emails`: the cursor query, and optionally one contact's emails and one status. */
export class ListEmailsQueryDto extends CursorQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(40)
  @Matches(/^[A-Za-z0-9_]+$/, { message: 'contactId must be a contact id (cnt_…)' })
  contactId?: string;

  @IsOptional()
  @IsIn(EMAIL_STATUSES, { message: `status must be one of: ${EMAIL_STATUSES.join(', ')}` })
  status?: PublicEmailStatus;
}
