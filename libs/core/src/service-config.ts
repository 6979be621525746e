import { toInt } from './config-transforms.js';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';


/** Settings every service process needs in distributed mode (one service per process). */
export class ServiceConfig {
  @IsOptional() @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'production';

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT?: number;

  @IsOptional() @IsString()
  HOST: string = '0.0.0.0';

  @IsString() @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL!: string;

  @IsString() @Matches(/^[^,\s]+(,[^,\s]+)*$/, { message: 'KAFKA_BROKERS must be a comma-separated host:port list' })
  KAFKA_BROKERS!: string;

  @IsOptional() @IsString()
  KAFKA_CLIENT_ID?: string;

  /** Consumer group session timeout: a crashed consumer's partitions move after this long. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(3000)
  KAFKA_SESSION_TIMEOUT_MS: number = 30_000;

  /** Longest a fetch waits for data; also bounds how long a consumer takes to stop. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(10)
  KAFKA_MAX_WAIT_MS: number = 1000;

  /** Shared by the gateway (signs) and every service (verifies) for the internal principal JWT. */
  @IsString() @MinLength(32, { message: 'INTERNAL_JWT_SECRET must be at least 32 characters' })
  INTERNAL_JWT_SECRET!: string;

  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /** Lease of a running background job; a crashed worker's job is claimed again after this. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000)
  JOB_LEASE_MS: number = 30_000;

  /** Milliseconds to finish in-flight work on SIGTERM before forcing exit. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(0)
  SHUTDOWN_TIMEOUT_MS: number = 25_000;
}

/** What `main.js migrate` needs: only the database. */
export class MigrateConfig {
  @IsString() @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL!: string;

  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';
}

/** Settings of the standalone process: everything optional, sensible defaults. */
export class StandaloneConfig {
  @IsOptional() @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'production';

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT: number = 3000;

  @IsOptional() @IsString()
  HOST: string = '127.0.0.1';

  /** External PostgreSQL; when absent an embedded PostgreSQL is started in HERALD_DATA_DIR. */
  @IsOptional() @IsString() @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional() @IsString()
  HERALD_DATA_DIR: string = '.herald';

  /** Generated and kept in HERALD_DATA_DIR when absent. */
  @IsOptional() @IsString() @MinLength(32, { message: 'INTERNAL_JWT_SECRET must be at least 32 characters' })
  INTERNAL_JWT_SECRET?: string;

  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(50)
  DATABASE_POOL_SIZE: number = 4;

  /** Lease of a running background job; a crashed worker's job is claimed again after this. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000)
  JOB_LEASE_MS: number = 30_000;

  @IsOptional() @Transform(toInt) @IsInt() @Min(0)
  SHUTDOWN_TIMEOUT_MS: number = 25_000;
}
