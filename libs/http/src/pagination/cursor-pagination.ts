import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { HeraldException } from '../errors/herald.exception.js';
import { ErrorCode } from '../errors/error-codes.js';

/** Query of every cursor-paginated list: `limit` 1..100 (default 20) and an opaque `cursor`. */
export class CursorQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

/** The spec's cursor page: `total` is counted only on the first page (no cursor), 0 afterwards. */
export interface CursorPage<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

/** Position after the last item of a page, for keyset pagination over (sortValue, id). */
export interface CursorPosition {
  /** The sort column value of the last item (e.g. createdAt ISO string). */
  k: string | number;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/**
 * Reads a cursor back; with `timestamp`, its sort value must be a timestamp (lists ordered by
 * creation time), so a tampered cursor is a 422 rather than a database error.
 */
export function decodeCursor(cursor: string, options: { timestamp?: boolean } = {}): CursorPosition {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPosition>;
    const keyOk = options.timestamp
      ? typeof parsed.k === 'string' &&
        /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/.test(parsed.k) &&
        !Number.isNaN(Date.parse(parsed.k.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')))
      : typeof parsed.k === 'string' || typeof parsed.k === 'number';
    if (keyOk && typeof parsed.id === 'string') return { k: parsed.k!, id: parsed.id };
  } catch {
    // fall through
  }
  throw new HeraldException(422, ErrorCode.ValidationError, 'Invalid cursor', {
    errors: [
      { field: 'cursor', message: 'cursor must be a value returned by a previous page', code: 'invalid_string' },
    ],
    suggestion: 'Pass the cursor from the previous response unchanged, or omit it for the first page.',
  });
}

/**
 * Builds a page from `limit + 1` rows fetched in order: the extra row only tells whether more exist.
 * `total` is the count for the first page, or 0 when a cursor was given.
 */
export function cursorPage<T>(
  rows: T[],
  limit: number,
  position: (item: T) => CursorPosition,
  total: number,
): CursorPage<T> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, cursor: hasMore && last !== undefined ? encodeCursor(position(last)) : null, hasMore, total };
}
