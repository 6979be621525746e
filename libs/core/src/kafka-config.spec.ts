import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaSecurityOf, KafkaTopicsConfig, partitionOverrides } from './kafka-config.js';
import { loadConfig } from './load-config.js';
import { ServiceConfig } from './service-config.js';

const dir = mkdtempSync(join(tmpdir(), 'kafka-config-'));
const pem = (name: string): string => {
  const path = join(dir, name);
  writeFileSync(path, `-----BEGIN ${name}-----\n`);
  return path;
};
const base = { DATABASE_URL: 'postgres://h/db', KAFKA_BROKERS: 'k:9093', INTERNAL_JWT_SECRET: 'x'.repeat(32) };
const load = (env: Record<string, string>) => loadConfig(ServiceConfig, { ...base, ...env });

describe('Kafka TLS and SASL settings are validated at start', () => {
  it('configures neither TLS nor SASL by default (a plaintext listener)', () => {
    expect(kafkaSecurityOf(load({}))).toEqual({});
  });

  it('a SASL mechanism without its username or password is refused, naming the variable', () => {
    expect(() => load({ KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512' })).toThrow(
      /KAFKA_SASL_USERNAME \(missing\): KAFKA_SASL_USERNAME is required when KAFKA_SASL_MECHANISM is set/,
    );
    expect(() => load({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' })).toThrow(
      /KAFKA_SASL_PASSWORD \(missing\): KAFKA_SASL_PASSWORD is required when KAFKA_SASL_MECHANISM is set/,
    );
  });

  it('an unsupported mechanism is refused with the supported ones listed', () => {
    expect(() =>
      load({ KAFKA_SASL_MECHANISM: 'oauthbearer', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }),
    ).toThrow(/KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512/);
  });

  it('an unreadable certificate file is refused at start with the variable and the reason', () => {
    expect(() => load({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: join(dir, 'absent.pem') })).toThrow(
      /KAFKA_SSL_CA_FILE .*must name a readable file: .*absent\.pem cannot be read \(ENOENT\)/,
    );
    expect(() => load({ KAFKA_SSL_CA_FILE: dir })).toThrow(/KAFKA_SSL_CA_FILE .*is not a file/);
  });

  it('a client certificate needs its key and the key its certificate', () => {
    expect(() => load({ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: pem('CERT') })).toThrow(
      /KAFKA_SSL_KEY_FILE \(missing\): KAFKA_SSL_KEY_FILE is required when KAFKA_SSL_CERT_FILE is set/,
    );
    expect(() => load({ KAFKA_SSL: 'true', KAFKA_SSL_KEY_FILE: pem('KEY') })).toThrow(
      /KAFKA_SSL_CERT_FILE \(missing\): KAFKA_SSL_CERT_FILE is required when KAFKA_SSL_KEY_FILE is set/,
    );
  });

  it('maps TLS (CA, client certificate, servername, verification) and SASL to the runtime settings', () => {
    const [ca, cert, key] = [pem('CA'), pem('CERT'), pem('KEY')];
    const config = load({
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: ca,
      KAFKA_SSL_CERT_FILE: cert,
      KAFKA_SSL_KEY_FILE: key,
      KAFKA_SSL_KEY_PASSWORD: 'pass',
      KAFKA_SSL_SERVERNAME: 'kafka.internal',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-256',
      KAFKA_SASL_USERNAME: 'herald',
      KAFKA_SASL_PASSWORD: 's3cret',
    });
    expect(kafkaSecurityOf(config)).toEqual({
      ssl: {
        caFile: ca,
        certFile: cert,
        keyFile: key,
        keyPassword: 'pass',
        servername: 'kafka.internal',
        rejectUnauthorized: true,
      },
      sasl: { mechanism: 'scram-sha-256', username: 'herald', password: 's3cret' },
    });
  });

  it('KAFKA_SSL alone uses the system CAs; a CA file implies TLS; verification can be turned off', () => {
    expect(kafkaSecurityOf(load({ KAFKA_SSL: 'true' }))).toEqual({ ssl: { rejectUnauthorized: true } });
    const ca = pem('CA2');
    expect(kafkaSecurityOf(load({ KAFKA_SSL_CA_FILE: ca, KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' }))).toEqual({
      ssl: { caFile: ca, rejectUnauthorized: false },
    });
  });
});

describe('the topics command settings', () => {
  it('defaults: 6 partitions, replication factor 3, 7 days of retention', () => {
    const config = loadConfig(KafkaTopicsConfig, { KAFKA_BROKERS: 'k:9092' });
    expect([config.KAFKA_TOPIC_PARTITIONS, config.KAFKA_REPLICATION_FACTOR, config.KAFKA_RETENTION_MS]).toEqual([
      6, 3, 604_800_000,
    ]);
  });

  it('reads per-topic partition overrides and refuses a malformed list', () => {
    expect([...partitionOverrides(' event.tracked=24, email.sent=12 ')]).toEqual([
      ['event.tracked', 24],
      ['email.sent', 12],
    ]);
    expect(() =>
      loadConfig(KafkaTopicsConfig, { KAFKA_BROKERS: 'k:9092', KAFKA_TOPIC_PARTITIONS_OVERRIDES: 'event.tracked:24' }),
    ).toThrow(/KAFKA_TOPIC_PARTITIONS_OVERRIDES must be a comma-separated list of topic=partitions/);
  });

  it('needs no database or JWT secret (any service image runs it with the Kafka settings only)', () => {
    expect(() => loadConfig(KafkaTopicsConfig, { KAFKA_BROKERS: 'k:9092' })).not.toThrow();
  });
});
