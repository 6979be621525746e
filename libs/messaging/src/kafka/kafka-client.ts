import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import { fixKafkaRequestQueue } from './request-queue-fix.js';

export interface KafkaConnection {
  brokers: string[];
  clientId: string;
}

/** A kafkajs client whose log lines go to Herald's logger instead of stdout. */
export function createKafka(
  conn: KafkaConnection,
  log?: (level: string, message: string, extra: Record<string, unknown>) => void,
): Kafka {
  fixKafkaRequestQueue();
  return new Kafka({
    clientId: conn.clientId,
    brokers: conn.brokers,
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
