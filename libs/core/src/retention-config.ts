import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { toInt } from './config-transforms.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How long each service keeps the rows of its bookkeeping tables (docs/operations.md, Retention).
 * Loaded beside the process's own config class, in standalone and distributed mode alike.
 */
export class RetentionConfig {
  /**
   * Applied events kept in each consumer's `inbox`, the record that makes a redelivered event a
   * duplicate. It must outlive every redelivery: longer than a topic's `retention.ms` plus the time
   * its log segment stays open (`segment.ms`), as a consumer group reset to the earliest offset (a
   * new group, or one whose committed offsets expired) reads the whole retained topic again.
   * Kafka's defaults (7 days each) give 14 days; the default adds a day.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(DAY, { message: 'INBOX_RETENTION_MS must be at least 86400000 (one day): see docs/operations.md, Retention' })
  INBOX_RETENTION_MS: number = 15 * DAY;

  /** Rows of `dead_letters` (events a consumer gave up on) kept for the operator to read and replay. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(DAY)
  DEAD_LETTERS_RETENTION_MS: number = 30 * DAY;

  /**
   * Completed background jobs kept in `jobs`. A day keeps the ids of jobs scheduled once a day (a
   * second enqueue of the same id is refused while the first is kept).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60_000)
  JOBS_COMPLETED_RETENTION_MS: number = DAY;

  /** Failed (and dead) background jobs kept in `jobs`, with their last error, for the operator. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(HOUR)
  JOBS_FAILED_RETENTION_MS: number = 30 * DAY;

  /** How often each service deletes what is past retention. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(DAY)
  RETENTION_INTERVAL_MS: number = 5 * 60_000;

  /** Rows each delete statement removes at most (a short lock and a short transaction each). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(100_000)
  RETENTION_BATCH_SIZE: number = 5000;
}

/** What the services' pruners read from the runtime (`HeraldRuntime.retention`). */
export interface RetentionSettings {
  inboxMs: number;
  deadLettersMs: number;
  jobsCompletedMs: number;
  jobsFailedMs: number;
  intervalMs: number;
  batchSize: number;
}

export const DEFAULT_RETENTION: RetentionSettings = retentionSettings(new RetentionConfig());

export function retentionSettings(config: RetentionConfig): RetentionSettings {
  return {
    inboxMs: config.INBOX_RETENTION_MS,
    deadLettersMs: config.DEAD_LETTERS_RETENTION_MS,
    jobsCompletedMs: config.JOBS_COMPLETED_RETENTION_MS,
    jobsFailedMs: config.JOBS_FAILED_RETENTION_MS,
    intervalMs: config.RETENTION_INTERVAL_MS,
    batchSize: config.RETENTION_BATCH_SIZE,
  };
}
