import { accessSync, constants, statSync } from 'node:fs';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Min,
  registerDecorator,
  ValidateIf,
} from 'class-validator';
import { toBool, toInt } from './config-transforms.js';

/** SASL mechanisms Herald configures (kafkajs' names). OAUTHBEARER and AWS IAM need code, not settings. */
export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** How a Kafka client authenticates and encrypts: plain data, mapped to kafkajs options by `createKafka`. */
export interface KafkaSecuritySettings {
  ssl?: {
    caFile?: string;
    certFile?: string;
    keyFile?: string;
    keyPassword?: string;
    servername?: string;
    rejectUnauthorized: boolean;
  };
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

/** The problem with a file the process must read, or undefined when it is a readable file. */
export function unreadableFile(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (err) {
    return `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

/**
 * The variable names a readable file (checked at start: a missing certificate fails the start, not
 * the first connection). `pairedWith`: the variable that requires this one.
 */
function IsReadableFile(pairedWith?: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isReadableFile',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && unreadableFile(value) === undefined,
        defaultMessage: (args) => {
          const variable = String(propertyName);
          return args?.value === undefined && pairedWith
            ? `${variable} is required when ${pairedWith} is set`
            : `${variable} must name a readable file: ${unreadableFile(String(args?.value))}`;
        },
      },
    });
}

const mutualTls = (o: KafkaClientConfig): boolean =>
  o.KAFKA_SSL_CERT_FILE !== undefined || o.KAFKA_SSL_KEY_FILE !== undefined;
const saslOn = (o: KafkaClientConfig): boolean => o.KAFKA_SASL_MECHANISM !== undefined;

/**
 * Where the Kafka cluster is and how to reach it: the settings of every Kafka client Herald builds
 * (each service, the `topics` command). TLS and SASL are off unless configured; every file is
 * checked to be readable at start, and a mechanism without its username or password is refused.
 */
export class KafkaClientConfig {
  @IsString()
  @Matches(/^[^,\s]+(,[^,\s]+)*$/, { message: 'KAFKA_BROKERS must be a comma-separated host:port list' })
  KAFKA_BROKERS!: string;

  @IsOptional()
  @IsString()
  KAFKA_CLIENT_ID?: string;

  /** TLS to the brokers (the system's CAs unless KAFKA_SSL_CA_FILE is set); implied by any KAFKA_SSL_*_FILE. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  KAFKA_SSL: boolean = false;

  /** PEM CA bundle the brokers' certificates are checked against (a private CA). */
  @IsOptional()
  @IsReadableFile()
  KAFKA_SSL_CA_FILE?: string;

  /** PEM client certificate (mutual TLS); needs KAFKA_SSL_KEY_FILE. */
  @ValidateIf(mutualTls)
  @IsReadableFile('KAFKA_SSL_KEY_FILE')
  KAFKA_SSL_CERT_FILE?: string;

  /** PEM private key of the client certificate; needs KAFKA_SSL_CERT_FILE. */
  @ValidateIf(mutualTls)
  @IsReadableFile('KAFKA_SSL_CERT_FILE')
  KAFKA_SSL_KEY_FILE?: string;

  /** Passphrase of an encrypted KAFKA_SSL_KEY_FILE. */
  @IsOptional()
  @IsString()
  KAFKA_SSL_KEY_PASSWORD?: string;

  /** Name checked against the brokers' certificates (SNI) when it differs from the broker host. */
  @IsOptional()
  @IsString()
  KAFKA_SSL_SERVERNAME?: string;

  /** `false` accepts any broker certificate: for a test cluster only, never production. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  KAFKA_SSL_REJECT_UNAUTHORIZED: boolean = true;

  /** SASL authentication: plain, scram-sha-256 or scram-sha-512 (any case); unset = none. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(KAFKA_SASL_MECHANISMS, {
    message: `KAFKA_SASL_MECHANISM must be one of ${KAFKA_SASL_MECHANISMS.join(', ')} (OAUTHBEARER and AWS IAM are not supported)`,
  })
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;

  @ValidateIf(saslOn)
  @IsString({ message: 'KAFKA_SASL_USERNAME is required when KAFKA_SASL_MECHANISM is set' })
  KAFKA_SASL_USERNAME?: string;

  @ValidateIf(saslOn)
  @IsString({ message: 'KAFKA_SASL_PASSWORD is required when KAFKA_SASL_MECHANISM is set' })
  KAFKA_SASL_PASSWORD?: string;
}

/** The TLS and SASL settings of a validated config, as the runtime carries them to `createKafka`. */
export function kafkaSecurityOf(config: KafkaClientConfig): KafkaSecuritySettings {
  const security: KafkaSecuritySettings = {};
  if (config.KAFKA_SSL || config.KAFKA_SSL_CA_FILE || config.KAFKA_SSL_CERT_FILE) {
    security.ssl = {
      rejectUnauthorized: config.KAFKA_SSL_REJECT_UNAUTHORIZED,
      ...(config.KAFKA_SSL_CA_FILE ? { caFile: config.KAFKA_SSL_CA_FILE } : {}),
      ...(config.KAFKA_SSL_CERT_FILE ? { certFile: config.KAFKA_SSL_CERT_FILE } : {}),
      ...(config.KAFKA_SSL_KEY_FILE ? { keyFile: config.KAFKA_SSL_KEY_FILE } : {}),
      ...(config.KAFKA_SSL_KEY_PASSWORD ? { keyPassword: config.KAFKA_SSL_KEY_PASSWORD } : {}),
      ...(config.KAFKA_SSL_SERVERNAME ? { servername: config.KAFKA_SSL_SERVERNAME } : {}),
    };
  }
  if (config.KAFKA_SASL_MECHANISM)
    security.sasl = {
      mechanism: config.KAFKA_SASL_MECHANISM,
      username: config.KAFKA_SASL_USERNAME ?? '',
      password: config.KAFKA_SASL_PASSWORD ?? '',
    };
  return security;
}

/**
 * What `main.js topics` needs: the cluster, and the partitions, replication and retention of the
 * topics it creates (docs/operations.md, "Kafka in production").
 */
export class KafkaTopicsConfig extends KafkaClientConfig {
  /** Partitions of each topic it creates, unless KAFKA_TOPIC_PARTITIONS_OVERRIDES names the topic. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  KAFKA_TOPIC_PARTITIONS: number = 6;

  /** Per-topic partitions: `event.tracked=24,email.sent=12` (dead-letter topics: `x.dlq=1`). */
  @IsOptional()
  @IsString()
  @Matches(/^\s*([A-Za-z0-9._-]+=[1-9][0-9]*\s*(,\s*[A-Za-z0-9._-]+=[1-9][0-9]*\s*)*)?$/, {
    message: 'KAFKA_TOPIC_PARTITIONS_OVERRIDES must be a comma-separated list of topic=partitions',
  })
  KAFKA_TOPIC_PARTITIONS_OVERRIDES: string = '';

  /** Replicas of each partition (3 on a production cluster; 1 on a single broker). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  KAFKA_REPLICATION_FACTOR: number = 3;

  /** `retention.ms` of each topic it creates; -1 keeps messages forever. Default 7 days. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(-1)
  KAFKA_RETENTION_MS: number = 604_800_000;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';
}

/** KAFKA_TOPIC_PARTITIONS_OVERRIDES as a map of topic → partitions. */
export function partitionOverrides(value: string): Map<string, number> {
  const overrides = new Map<string, number>();
  for (const entry of value.split(',')) {
    const [topic, count] = entry.split('=').map((s) => s.trim());
    if (topic && count) overrides.set(topic, Number(count));
  }
  return overrides;
}
