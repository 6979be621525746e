import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  /** Paths of the PEM files: the CA, the server's (for 127.0.0.1 and localhost) and a client's. */
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  read(path: string): string;
}

/** A throwaway CA with a server and a client certificate signed by it, made by the openssl CLI. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'herald-certs-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=herald-test-ca',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
  );
  const sign = (name: string, cn: string, ext: string) => {
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${cn}`,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.csr`),
    );
    writeFileSync(at(`${name}.ext`), ext);
    openssl(
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      at(`${name}.ext`),
      '-out',
      at(`${name}.pem`),
    );
  };
  sign('server', 'localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  sign('client', 'herald-client', 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    caFile: at('ca.pem'),
    serverCertFile: at('server.pem'),
    serverKeyFile: at('server.key'),
    clientCertFile: at('client.pem'),
    clientKeyFile: at('client.key'),
    read: (path) => readFileSync(path, 'utf8'),
  };
}
