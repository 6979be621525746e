import { kafkaSecurityOptions } from './kafka-client.js';

const files: Record<string, string> = { '/ca.pem': 'CA PEM', '/cert.pem': 'CERT PEM', '/key.pem': 'KEY PEM' };
const read = (path: string): string => {
  const content = files[path];
  if (content === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
  return content;
};

describe('the Kafka security settings become kafkajs options', () => {
  it('no settings: no ssl, no sasl', () => {
    expect(kafkaSecurityOptions(undefined, read)).toEqual({});
    expect(kafkaSecurityOptions({}, read)).toEqual({});
  });

  it('TLS reads the CA, the client certificate and key, and passes servername and verification', () => {
    expect(
      kafkaSecurityOptions(
        {
          ssl: {
            caFile: '/ca.pem',
            certFile: '/cert.pem',
            keyFile: '/key.pem',
            keyPassword: 'pw',
            servername: 'kafka.internal',
            rejectUnauthorized: true,
          },
        },
        read,
      ),
    ).toEqual({
      ssl: {
        ca: ['CA PEM'],
        cert: 'CERT PEM',
        key: 'KEY PEM',
        passphrase: 'pw',
        servername: 'kafka.internal',
        rejectUnauthorized: true,
      },
    });
  });

  it('TLS with the system CAs only', () => {
    expect(kafkaSecurityOptions({ ssl: { rejectUnauthorized: false } }, read)).toEqual({
      ssl: { rejectUnauthorized: false },
    });
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)(
    'SASL %s passes mechanism, username and password',
    (mechanism) => {
      expect(kafkaSecurityOptions({ sasl: { mechanism, username: 'herald', password: 'pw' } }, read)).toEqual({
        sasl: { mechanism, username: 'herald', password: 'pw' },
      });
    },
  );

  it('a file that cannot be read at boot fails with its variable named', () => {
    expect(() => kafkaSecurityOptions({ ssl: { caFile: '/gone.pem', rejectUnauthorized: true } }, read)).toThrow(
      /KAFKA_SSL_CA_FILE: cannot read \/gone\.pem: ENOENT/,
    );
    expect(() =>
      kafkaSecurityOptions({ ssl: { certFile: '/cert.pem', keyFile: '/nokey.pem', rejectUnauthorized: true } }, read),
    ).toThrow(/KAFKA_SSL_KEY_FILE: cannot read \/nokey\.pem/);
  });

  it('SASL without a password is refused, naming the variable', () => {
    expect(() =>
      kafkaSecurityOptions({ sasl: { mechanism: 'plain', username: 'herald', password: '' } }, read),
    ).toThrow(/KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM=plain/);
  });
});
