import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { KafkaSecuritySettings } from '@herald/core';
import { Kafka, logLevel, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import { fixKafkaRequestQueue } from './request-queue-fix.js';
import { closeConnectionOnRequestTimeout } from './request-timeout-fix.js';

export interface KafkaConnection {
  brokers: string[];
  clientId: string;
  /** TLS and SASL; none when absent (a plaintext listener). */
  security?: KafkaSecuritySettings;
}

/** A kafkajs client whose log lines go to Herald's logger instead of stdout. */
export function createKafka(
  conn: KafkaConnection,
  log?: (level: string, message: string, extra: Record<string, unknown>) => void,
): Kafka {
  fixKafkaRequestQueue();
  closeConnectionOnRequestTimeout();
  return new Kafka({
    clientId: conn.clientId,
    brokers: conn.brokers,
    ...kafkaSecurityOptions(conn.security),
    connectionTimeout: 3000,
    retry: { initialRetryTime: 200, retries: 8 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...extra } = entry;
        log?.(
          level === logLevel.ERROR ? 'error' : level === logLevel.WARN ? 'warn' : 'info',
          `kafka: ${message}`,
          extra,
        );
      },
  });
}

/**
 * kafkajs' `ssl` and `sasl` options from the security settings: the PEM files are read here (at
 * boot), so a file that became unreadable since the configuration was checked fails the start with
 * the variable named, not the first connection.
 */
export function kafkaSecurityOptions(
  security: KafkaSecuritySettings | undefined,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const options: Pick<KafkaConfig, 'ssl' | 'sasl'> = {};
  const file = (variable: string, path: string): string => {
    try {
      return read(path);
    } catch (err) {
      throw new Error(`${variable}: cannot read ${path}: ${(err as Error).message}`);
    }
  };
  const ssl = security?.ssl;
  if (ssl) {
    const tls: ConnectionOptions = { rejectUnauthorized: ssl.rejectUnauthorized };
    if (ssl.caFile) tls.ca = [file('KAFKA_SSL_CA_FILE', ssl.caFile)];
    if (ssl.certFile) tls.cert = file('KAFKA_SSL_CERT_FILE', ssl.certFile);
    if (ssl.keyFile) tls.key = file('KAFKA_SSL_KEY_FILE', ssl.keyFile);
    if (ssl.keyPassword) tls.passphrase = ssl.keyPassword;
    if (ssl.servername) tls.servername = ssl.servername;
    options.ssl = tls;
  }
  const sasl = security?.sasl;
  if (sasl) {
    if (!sasl.username) throw new Error(`KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM=${sasl.mechanism}`);
    if (!sasl.password) throw new Error(`KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM=${sasl.mechanism}`);
    options.sasl = { mechanism: sasl.mechanism, username: sasl.username, password: sasl.password } as SASLOptions;
  }
  return options;
}
