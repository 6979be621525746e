import { toBool, toInt } from './config-transforms.js';
import { KafkaClientConfig } from './kafka-config.js';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { SERVICES, urlVariableOf, type ServiceName, type UpstreamName } from './service-directory.js';

/**
 * Settings every service process needs in distributed mode (one service per process); the Kafka
 * cluster's address, TLS and SASL are {@link KafkaClientConfig}'s.
 */
export class ServiceConfig extends KafkaClientConfig {
  /**
   * Comma-separated addresses or CIDRs of the proxies whose X-Forwarded-For is believed (the client
   * address the login throttle counts). Empty: none, the socket's address is the client's.
   */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F.:/,\s]*$/, { message: 'TRUSTED_PROXIES must be comma-separated IP addresses or CIDRs' })
  TRUSTED_PROXIES: string = '';

  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'production';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST: string = '0.0.0.0';

  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL!: string;

  /**
   * Consumer group ids are `<prefix>-<service>`: deployments sharing one Kafka cluster set different
   * prefixes (topic names do not change).
   */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]+$/, { message: 'KAFKA_GROUP_PREFIX may contain only letters, digits, ".", "_" and "-"' })
  KAFKA_GROUP_PREFIX: string = 'herald';

  /**
   * Consumer group session timeout: a consumer that stops heartbeating (crash, SIGKILL) is removed
   * from its group after this long, and its partitions (and its replacement) wait that long.
   * Heartbeats go every tenth of it. A graceful stop leaves the group at once instead.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(3000)
  KAFKA_SESSION_TIMEOUT_MS: number = 10_000;

  /** Longest a fetch waits for data; also bounds how long a consumer takes to stop. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  KAFKA_MAX_WAIT_MS: number = 1000;

  /** Shared by the gateway (signs) and every service (verifies) for the internal principal JWT. */
  @IsString()
  @MinLength(32, { message: 'INTERNAL_JWT_SECRET must be at least 32 characters' })
  INTERNAL_JWT_SECRET!: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /**
   * How long a query may wait for its answer before the connection watchdog asks PostgreSQL whether
   * the connection is alive; one the server runs nothing for is ended (docs/operations.md).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  DATABASE_STALLED_QUERY_MS: number = 15_000;

  /** Longest a new database connection may take to be ready. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(500)
  DATABASE_CONNECT_TIMEOUT_MS: number = 10_000;

  /** Lease of a running background job; a crashed worker's job is claimed again after this. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  JOB_LEASE_MS: number = 30_000;

  /**
   * Read-your-writes (docs/consistency.md): a request waits until the copies it reads have applied
   * the project's earlier writes. `false` answers from copies as they are (benchmarks compare both).
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  READ_YOUR_WRITES: boolean = true;

  /** Longest a request waits for a copy to apply the project's earlier writes before a 503 `CONSISTENCY_TIMEOUT`. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  READ_YOUR_WRITES_TIMEOUT_MS: number = 5000;

  /** Milliseconds to finish in-flight work on SIGTERM before forcing exit. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS: number = 25_000;

  /**
   * Milliseconds a process keeps serving after SIGTERM, not ready and answering every request with
   * `Connection: close`, before it stops accepting connections: the time its balancers take to see
   * readiness fail (docs/operations.md, "Shutdown"). 0 where a preStop sleep holds SIGTERM back.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  SHUTDOWN_DRAIN_MS: number = 0;
}

/** What `main.js migrate` needs: only the database. */
export class MigrateConfig {
  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL!: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';
}

/** Settings of the standalone process: everything optional, sensible defaults. */
export class StandaloneConfig {
  /**
   * Comma-separated addresses or CIDRs of the proxies whose X-Forwarded-For is believed (the client
   * address the login throttle counts). Empty: none, the socket's address is the client's.
   */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F.:/,\s]*$/, { message: 'TRUSTED_PROXIES must be comma-separated IP addresses or CIDRs' })
  TRUSTED_PROXIES: string = '';

  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'production';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  @IsOptional()
  @IsString()
  HOST: string = '127.0.0.1';

  /** External PostgreSQL; when absent an embedded PostgreSQL is started in HERALD_DATA_DIR. */
  @IsOptional()
  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  HERALD_DATA_DIR: string = '.herald';

  /** Generated and kept in HERALD_DATA_DIR when absent. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'INTERNAL_JWT_SECRET must be at least 32 characters' })
  INTERNAL_JWT_SECRET?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(50)
  DATABASE_POOL_SIZE: number = 4;

  /**
   * How long a query may wait for its answer before the connection watchdog asks PostgreSQL whether
   * the connection is alive; one the server runs nothing for is ended (docs/operations.md).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  DATABASE_STALLED_QUERY_MS: number = 15_000;

  /** Longest a new database connection may take to be ready. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(500)
  DATABASE_CONNECT_TIMEOUT_MS: number = 10_000;

  /** Lease of a running background job; a crashed worker's job is claimed again after this. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  JOB_LEASE_MS: number = 30_000;

  /**
   * Read-your-writes (docs/consistency.md): a request waits until the copies it reads have applied
   * the project's earlier writes. `false` answers from copies as they are (benchmarks compare both).
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  READ_YOUR_WRITES: boolean = true;

  /** Longest a request waits for a copy to apply the project's earlier writes before a 503 `CONSISTENCY_TIMEOUT`. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  READ_YOUR_WRITES_TIMEOUT_MS: number = 5000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS: number = 25_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  SHUTDOWN_DRAIN_MS: number = 0;
}

/** TRUSTED_PROXIES as Fastify's `trustProxy`: the list, or false when none is configured. */
export function trustedProxies(value: string | undefined): string[] | false {
  const list = (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return list.length > 0 ? list : false;
}

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/**
 * Where the other services listen (distributed mode), for a service that must ask a producer whether
 * a project's writes are published before answering from its copy (read-your-writes). Optional here:
 * each service requires those of the producers it consumes from at start (the gateway's falls back to
 * APP_URL, the public URL, as sending's billing calls do). Loaded beside the service's own config
 * class, whose required URL variables it does not make optional.
 */
export class PeerUrlsConfig {
  @IsOptional() @Matches(HTTP_URL, { message: 'CONTACTS_URL must be an http(s) URL' }) CONTACTS_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'SENDING_URL must be an http(s) URL' }) SENDING_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'CAMPAIGNS_URL must be an http(s) URL' }) CAMPAIGNS_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'SEGMENTS_URL must be an http(s) URL' }) SEGMENTS_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'WORKFLOWS_URL must be an http(s) URL' }) WORKFLOWS_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'DOMAINS_URL must be an http(s) URL' }) DOMAINS_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'ANALYTICS_URL must be an http(s) URL' }) ANALYTICS_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'WEBHOOKS_URL must be an http(s) URL' }) WEBHOOKS_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'GATEWAY_URL must be an http(s) URL' }) GATEWAY_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'APP_URL must be an http(s) URL' }) APP_URL?: string;
}

/** Each service's URL as the peer-URL variables give it (the gateway's: GATEWAY_URL, else APP_URL). */
export function peerUrls(config: PeerUrlsConfig): Partial<Record<ServiceName, string>> {
  const urls: Partial<Record<ServiceName, string>> = {};
  for (const s of SERVICES) {
    const url =
      s.name === 'gateway'
        ? (config.GATEWAY_URL ?? config.APP_URL)
        : (config as Record<string, string | undefined>)[urlVariableOf(s.name as UpstreamName)];
    if (url) urls[s.name] = url;
  }
  return urls;
}
