import {
  dkimEncryptionKey,
  loadConfig,
  openSecret,
  requiredVariables,
  sealSecret,
  ServiceConfig,
  type HeraldRuntime,
} from '@herald/core';
import { DomainsServiceConfig, DomainsSettings, resolveDkimEncryptionKey } from './domains.settings.js';

const runtime = (mode: HeraldRuntime['mode']): HeraldRuntime => ({
  mode,
  databaseUrl: 'postgres://x',
  databasePoolSize: 1,
  internalJwtSecret: 's'.repeat(40),
  jobLeaseMs: 30_000,
});

describe('domains settings', () => {
  it('default to the system resolvers, v=spf1 a mx ~all, checks every 5 minutes and verified domains every hour', () => {
    const s = loadConfig(DomainsSettings, {});
    expect(s).toMatchObject({
      SPF_RECORD: 'v=spf1 a mx ~all',
      DOMAIN_CHECK_INTERVAL_MS: 300_000,
      DOMAIN_RECHECK_VERIFIED_MS: 3_600_000,
    });
    expect(s.DNS_SERVERS).toBeUndefined();
    expect(s.DKIM_ENCRYPTION_KEY).toBeUndefined();
  });

  it('reject an SPF record not starting v=spf1, a short DKIM key and intervals under a second', () => {
    expect(() => loadConfig(DomainsSettings, { SPF_RECORD: 'include:x' })).toThrow(/SPF_RECORD/);
    expect(() => loadConfig(DomainsSettings, { DKIM_ENCRYPTION_KEY: 'short' })).toThrow(/DKIM_ENCRYPTION_KEY/);
    expect(() => loadConfig(DomainsSettings, { DOMAIN_CHECK_INTERVAL_MS: '10' })).toThrow(/DOMAIN_CHECK_INTERVAL_MS/);
  });

  it('accept DNS_SERVERS as IP addresses with optional ports and refuse host names, the same rule as /v1/verify (Node resolves through IPs only)', () => {
    expect(loadConfig(DomainsSettings, { DNS_SERVERS: '127.0.0.1:5353,[::1]:53' }).DNS_SERVERS).toBe(
      '127.0.0.1:5353,[::1]:53',
    );
    expect(() => loadConfig(DomainsSettings, { DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS/);
  });

  it('in distributed mode require DKIM_ENCRYPTION_KEY besides what every service requires', () => {
    expect(requiredVariables(DomainsServiceConfig)).toEqual(
      [...requiredVariables(ServiceConfig), 'DKIM_ENCRYPTION_KEY'].sort(),
    );
    expect(() => resolveDkimEncryptionKey(loadConfig(DomainsSettings, {}), runtime('distributed'))).toThrow(
      /DKIM_ENCRYPTION_KEY/,
    );
  });

  it('standalone without DKIM_ENCRYPTION_KEY seals with the key derived from the internal secret, as the sending service opens it', () => {
    const key = resolveDkimEncryptionKey(loadConfig(DomainsSettings, {}), runtime('standalone'));
    expect(key).toBe(dkimEncryptionKey(undefined, 's'.repeat(40)));
    expect(key).not.toContain('s'.repeat(40));
    expect(openSecret(sealSecret('pem', key), dkimEncryptionKey(undefined, 's'.repeat(40)))).toBe('pem');
  });

  it('a configured DKIM_ENCRYPTION_KEY is used as is in both modes', () => {
    const s = loadConfig(DomainsSettings, { DKIM_ENCRYPTION_KEY: 'k'.repeat(32) });
    expect(resolveDkimEncryptionKey(s, runtime('standalone'))).toBe('k'.repeat(32));
    expect(resolveDkimEncryptionKey(s, runtime('distributed'))).toBe('k'.repeat(32));
  });
});
