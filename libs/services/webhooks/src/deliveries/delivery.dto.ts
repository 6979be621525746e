import { IsISO8601 } from 'class-validator';

/** A time range of an endpoint's deliveries (by when each was created): [from, to). */
export class ReplayRangeDto {
  /** ISO 8601, inclusive. */
  @IsISO8601({ strict: true })
  from!: string;

  /** ISO 8601, exclusive; after `from`. */
  @IsISO8601({ strict: true })
  to!: string;
}
