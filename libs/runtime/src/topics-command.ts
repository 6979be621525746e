import {
  configureLogging,
  createLogger,
  KafkaTopicsConfig,
  kafkaSecurityOf,
  loadConfig,
  partitionOverrides,
} from '@herald/core';
import { createKafka, desiredTopics, ensureTopics } from '@herald/messaging';
import { configOrExit } from './run-service.js';

const log = createLogger('topics');

/**
 * `main.js topics [--check]`: creates the Kafka topics Herald uses that are missing (or, with
 * `--check`, only reports them) with KAFKA_TOPIC_PARTITIONS(_OVERRIDES), KAFKA_REPLICATION_FACTOR and
 * KAFKA_RETENTION_MS, through the same brokers, TLS and SASL settings as the services. The exit code:
 * 0 when every topic exists with at least its partitions, 1 otherwise (each problem names its topic).
 */
export async function runTopicsCommand(service: string, args: readonly string[], env = process.env): Promise<number> {
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`usage: main.js topics [--check] (unknown: ${unknown.join(' ')})\n`);
    return 2;
  }
  const check = args.includes('--check');
  const config = configOrExit(() => loadConfig(KafkaTopicsConfig, env));
  configureLogging(config.LOG_LEVEL);
  const desired = desiredTopics({
    partitions: config.KAFKA_TOPIC_PARTITIONS,
    overrides: partitionOverrides(config.KAFKA_TOPIC_PARTITIONS_OVERRIDES),
    replicationFactor: config.KAFKA_REPLICATION_FACTOR,
    retentionMs: config.KAFKA_RETENTION_MS,
  });
  const kafka = createKafka(
    {
      brokers: config.KAFKA_BROKERS.split(','),
      clientId: config.KAFKA_CLIENT_ID ?? `herald-${service}-topics`,
      security: kafkaSecurityOf(config),
    },
    (level, message, extra) => log[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'info'](message, extra),
  );
  const admin = kafka.admin();
  try {
    await admin.connect();
    const run = await ensureTopics(admin, desired, check);
    for (const note of run.notes) log.warn(note);
    if (run.problems.length > 0) {
      for (const problem of run.problems) process.stderr.write(`${problem}\n`);
      log.error(check ? 'topics check failed' : 'topics not as configured', { problems: run.problems });
      return 1;
    }
    log.info(check ? 'topics check passed' : 'topics ready', { topics: desired.length, created: run.created });
    return 0;
  } catch (err) {
    process.stderr.write(`topics: ${(err as Error).message}\n`);
    log.error('topics command failed', { error: (err as Error).message });
    return 1;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
