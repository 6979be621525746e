import { CursorQueryDto } from '@herald/http';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** `GET /inbound`: the cursor query, and optionally one contact's messages. */
export class ListInboundQueryDto extends CursorQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(40)
  @Matches(/^[A-Za-z0-9_]+$/, { message: 'contactId must be a contact id (cnt_…)' })
  contactId?: string;
}
