// A real Kafka wire-protocol broker for tests, picked in this order:
//   1. KAFKA_BROKERS (comma-separated host:port) -> an external broker; stop() is a no-op.
//   2. a reachable Docker engine -> testcontainers' Kafka module (confluentinc/cp-kafka, KRaft).
//   3. tools/kafka-mock/kafka-mock -> librdkafka's in-process mock cluster (no Docker, no JVM);
//      built by tools/kafka-mock/build.sh, system packages installed by scripts/ensure-system-deps.sh.
//
// Mock-cluster semantics the tests/transport rely on (librdkafka 2.0.x, Debian bookworm):
//   - unknown topics are auto-created on Metadata (kafkajs' allowAutoTopicCreation default) with
//     4 partitions; CreateTopics (kafkajs admin.createTopics) is NOT implemented by the mock, so use
//     KafkaBroker.createTopic() which works on every provider.
//   - consumer groups + committed offsets work (JoinGroup/SyncGroup/Heartbeat/OffsetCommit/Fetch).
//   - faults can be injected (`inject`: a partition's leader moved, request errors pushed, a broker
//     down or up); `startKafka({ brokerCount })` starts several brokers so that leaders can move.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { KafkaClientConfig, kafkaSecurityOf, loadConfig } from '@herald/core';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel, type KafkaConfig, type SASLOptions } from 'kafkajs';
import { reapOnExit } from '../processes/reap-on-exit.js';

export interface KafkaBroker {
  brokers: string[];
  provider: 'external' | 'mock' | 'testcontainers';
  /** Creates a topic with an explicit partition count (no-op if it already exists). */
  createTopic(topic: string, partitions: number): Promise<void>;
  /**
   * The mock cluster only: a fault injected (tools/kafka-mock's commands: `leader <topic> <partition>
   * <id>`, `errors <api key> <code> <count>`, `down <id>`, `up <id>`); absent on other providers.
   */
  inject?(command: string): Promise<void>;
  stop(): Promise<void>;
}

export interface StartKafkaOptions {
  /** Brokers of the mock cluster (default 1); a leader can only move between several. */
  brokerCount?: number;
}

const MOCK_BOOT_TIMEOUT_MS = 10_000;
const MOCK_STOP_GRACE_MS = 5_000;
const CP_KAFKA_IMAGE = process.env.KAFKA_TESTCONTAINERS_IMAGE ?? 'confluentinc/cp-kafka:7.6.1';

export async function startKafka(options: StartKafkaOptions = {}): Promise<KafkaBroker> {
  const external = process.env.KAFKA_BROKERS?.trim();
  if (external) {
    const brokers = external
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    return {
      brokers,
      provider: 'external',
      createTopic: (topic, partitions) => adminCreateTopic(brokers, topic, partitions),
      stop: async () => {},
    };
  }
  if (await dockerReachable()) return startTestcontainers();
  return startMock(options.brokerCount);
}

/** Retries a kafkajs admin connect + metadata fetch until the cluster answers (or the deadline passes). */
export async function waitForKafka(brokers: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const kafka = new Kafka({
    clientId: 'herald-wait-for-kafka',
    brokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });
  let lastError: unknown;
  while (Date.now() < deadline) {
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.fetchTopicMetadata();
      return;
    } catch (err) {
      lastError = err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await admin.disconnect().catch(() => {});
    }
  }
  throw new Error(`Kafka at ${brokers.join(',')} not ready after ${timeoutMs} ms: ${String(lastError)}`);
}

// ---------------------------------------------------------------------------------------------------
// Provider: testcontainers

async function startTestcontainers(): Promise<KafkaBroker> {
  // Imported dynamically so testcontainers is only loaded when a Docker engine is actually present.
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const container = await new KafkaContainer(CP_KAFKA_IMAGE)
    .withKraft()
    // Match the mock's auto-created partition count so tests behave the same on both providers.
    // Allow the short consumer session timeouts tests use against the mock (broker default min: 6 s).
    .withEnvironment({
      KAFKA_NUM_PARTITIONS: '4',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
      KAFKA_GROUP_MIN_SESSION_TIMEOUT_MS: '1000',
    })
    .start();
  const brokers = [`${container.getHost()}:${container.getMappedPort(9093)}`];
  await waitForKafka(brokers, 60_000);
  return {
    brokers,
    provider: 'testcontainers',
    createTopic: (topic, partitions) => adminCreateTopic(brokers, topic, partitions),
    stop: async () => {
      await container.stop();
    },
  };
}

async function adminCreateTopic(brokers: string[], topic: string, partitions: number): Promise<void> {
  const admin = new Kafka({
    clientId: 'herald-test-admin',
    brokers,
    logLevel: logLevel.NOTHING,
    ...externalSecurity(),
  }).admin();
  await admin.connect();
  try {
    // Resolves false (no throw) when the topic already exists.
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

/**
 * kafkajs' ssl/sasl options from the shell's KAFKA_SSL* / KAFKA_SASL_* settings, for an external
 * KAFKA_BROKERS cluster that requires them (the PEM files read as the services read them).
 */
function externalSecurity(): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  if (!process.env.KAFKA_BROKERS) return {};
  const config = loadConfig(KafkaClientConfig, process.env);
  const security = kafkaSecurityOf(config);
  const read = (path: string) => readFileSync(path, 'utf8');
  return {
    ...(security.ssl
      ? {
          ssl: {
            rejectUnauthorized: security.ssl.rejectUnauthorized,
            ...(security.ssl.caFile ? { ca: [read(security.ssl.caFile)] } : {}),
            ...(security.ssl.certFile ? { cert: read(security.ssl.certFile) } : {}),
            ...(security.ssl.keyFile ? { key: read(security.ssl.keyFile) } : {}),
            ...(security.ssl.keyPassword ? { passphrase: security.ssl.keyPassword } : {}),
            ...(security.ssl.servername ? { servername: security.ssl.servername } : {}),
          },
        }
      : {}),
    ...(security.sasl ? { sasl: security.sasl as SASLOptions } : {}),
  };
}

/** True when DOCKER_HOST (unix:// or tcp://) or /var/run/docker.sock answers GET /_ping. */
async function dockerReachable(): Promise<boolean> {
  const dockerHost = process.env.DOCKER_HOST;
  let target: { socketPath: string } | { host: string; port: number };
  if (dockerHost?.startsWith('unix://')) target = { socketPath: dockerHost.slice('unix://'.length) };
  else if (dockerHost?.startsWith('tcp://')) {
    const url = new URL(dockerHost.replace(/^tcp:/, 'http:'));
    target = { host: url.hostname, port: Number(url.port || 2375) };
  } else if (existsSync('/var/run/docker.sock')) target = { socketPath: '/var/run/docker.sock' };
  else return false;
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', method: 'GET', timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

// ---------------------------------------------------------------------------------------------------
// Provider: librdkafka mock cluster (tools/kafka-mock)

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'tools', 'kafka-mock', 'build.sh'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

function run(cmd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (err) => resolve({ code: -1, output: output + String(err) }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function startMock(brokerCount = 1): Promise<KafkaBroker> {
  const root = repoRoot();
  const binary = join(root, 'tools', 'kafka-mock', 'kafka-mock');
  if (!existsSync(binary)) {
    const build = await run('bash', [join(root, 'tools', 'kafka-mock', 'build.sh')]);
    if (build.code !== 0 || !existsSync(binary)) {
      throw new Error(
        `Kafka mock broker ${binary} is missing and could not be built (no KAFKA_BROKERS, no Docker). ` +
          `Run scripts/ensure-system-deps.sh to install librdkafka-dev + gcc and build it.\n${build.output.trim()}`,
      );
    }
  }

  const child: ChildProcessWithoutNullStreams = reapOnExit(
    spawn(binary, [String(brokerCount)], { stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  // Replies ("OK" / "ERR ...") to stdin commands arrive in order, one line each.
  const pendingReplies: Array<(line: string) => void> = [];

  const bootstrap = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kafka-mock printed no BOOTSTRAP line within ${MOCK_BOOT_TIMEOUT_MS} ms. stderr: ${stderr}`));
    }, MOCK_BOOT_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${binary} (run scripts/ensure-system-deps.sh): ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`kafka-mock exited early (code ${code}, signal ${signal}). stderr: ${stderr}`));
    });
    lines.on('line', (line) => {
      if (line.startsWith('BOOTSTRAP=')) {
        clearTimeout(timer);
        resolve(line.slice('BOOTSTRAP='.length));
      } else {
        pendingReplies.shift()?.(line);
      }
    });
  });
  const brokers = bootstrap.split(',').filter(Boolean);

  /** One stdin command; its reply ("OK" or "ERR …") settles it. */
  const command = (line: string) =>
    new Promise<void>((resolve, reject) => {
      pendingReplies.push((reply) => (reply === 'OK' ? resolve() : reject(new Error(`kafka-mock: ${reply}`))));
      child.stdin.write(`${line}\n`);
    });
  let stopping: Promise<void> | undefined;
  return {
    brokers,
    provider: 'mock',
    createTopic: (topic, partitions) => {
      if (!/^[A-Za-z0-9._-]+$/.test(topic)) return Promise.reject(new Error(`invalid topic name: ${topic}`));
      return command(`create ${topic} ${partitions}`).catch((err: Error) => {
        if (!err.message.includes('already exists')) throw err;
      });
    },
    inject: (line) => {
      if (!/^(leader [A-Za-z0-9._-]+ \d+ -?\d+|errors \d+ \d+ \d+|(down|up) -?\d+)$/.test(line))
        return Promise.reject(new Error(`not a kafka-mock fault: ${line}`));
      return command(line);
    },
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.stdin.end(); // EOF -> the mock destroys the cluster and exits 0
        const timer = setTimeout(() => child.kill('SIGKILL'), MOCK_STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
        lines.close();
      })()),
  };
}
