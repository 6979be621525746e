import { ConfigError, loadConfig } from '@herald/core';
import { isDnsServerList } from '@herald/core';
import { dnsResolverFactory, VerifySettings } from './verify.settings.js';

describe('VerifySettings', () => {
  it('defaults: system resolvers, 3000 ms deadline', () => {
    const settings = loadConfig(VerifySettings, {});
    expect(settings.DNS_SERVERS).toBeUndefined();
    expect(settings.VERIFY_TIMEOUT_MS).toBe(3000);
  });

  it('reads DNS_SERVERS and VERIFY_TIMEOUT_MS', () => {
    const settings = loadConfig(VerifySettings, { DNS_SERVERS: '127.0.0.1:5353, [::1]:53', VERIFY_TIMEOUT_MS: '1500' });
    expect(settings).toMatchObject({ DNS_SERVERS: '127.0.0.1:5353, [::1]:53', VERIFY_TIMEOUT_MS: 1500 });
  });

  it('refuses at boot a DNS_SERVERS entry the resolver cannot use (host names, garbage)', () => {
    expect(() => loadConfig(VerifySettings, { DNS_SERVERS: 'dns.google' })).toThrow(ConfigError);
    expect(() => loadConfig(VerifySettings, { DNS_SERVERS: '127.0.0.1,nonsense' })).toThrow(
      /DNS_SERVERS \(got "127.0.0.1,nonsense"\)/,
    );
    expect(isDnsServerList(' , ')).toBe(false);
  });

  it('refuses a deadline that is not an integer between 100 and 30000 ms', () => {
    expect(() => loadConfig(VerifySettings, { VERIFY_TIMEOUT_MS: 'soon' })).toThrow(/VERIFY_TIMEOUT_MS/);
    expect(() => loadConfig(VerifySettings, { VERIFY_TIMEOUT_MS: '10' })).toThrow(/VERIFY_TIMEOUT_MS/);
    expect(() => loadConfig(VerifySettings, { VERIFY_TIMEOUT_MS: '60000' })).toThrow(/VERIFY_TIMEOUT_MS/);
  });

  it('a verifying import looks up 16 domains at once by default; IMPORT_VERIFY_CONCURRENCY sets 1 to 256', () => {
    expect(loadConfig(VerifySettings, {}).IMPORT_VERIFY_CONCURRENCY).toBe(16);
    expect(loadConfig(VerifySettings, { IMPORT_VERIFY_CONCURRENCY: '64' }).IMPORT_VERIFY_CONCURRENCY).toBe(64);
    expect(() => loadConfig(VerifySettings, { IMPORT_VERIFY_CONCURRENCY: '0' })).toThrow(/IMPORT_VERIFY_CONCURRENCY/);
    expect(() => loadConfig(VerifySettings, { IMPORT_VERIFY_CONCURRENCY: '1000' })).toThrow(
      /IMPORT_VERIFY_CONCURRENCY/,
    );
  });

  it('the resolver factory gives a fresh resolver on DNS_SERVERS each time', () => {
    const make = dnsResolverFactory(loadConfig(VerifySettings, { DNS_SERVERS: '127.0.0.1:5353' }));
    const a = make();
    expect(a).not.toBe(make());
    expect((a as unknown as { getServers(): string[] }).getServers()).toEqual(['127.0.0.1:5353']);
  });
});
