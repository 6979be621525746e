import { Resolver } from 'node:dns/promises';
import { ValidateBy } from 'class-validator';

export interface DnsOptions {
  /** `DNS_SERVERS`: comma-separated `host` or `host:port` (IPv6 as `[addr]:port`). Empty: the system resolver's servers. */
  servers?: string;
  /** Per-try timeout in milliseconds. */
  timeoutMs?: number;
  tries?: number;
}

/** Parses DNS_SERVERS into the form `Resolver.setServers` takes. */
export function parseDnsServers(servers: string | undefined): string[] {
  return (servers ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * A DNS resolver for lookups Herald makes (domain verification, MX checks): through DNS_SERVERS
 * when set, else the system's servers, with a short timeout so a lookup never hangs a request.
 */
export function createResolver(options: DnsOptions = {}): Resolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
  const servers = parseDnsServers(options.servers);
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

/** DNS errors that mean "no such record" rather than "could not ask". */
export function isNoDataError(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ENODATA' || code === 'ENOTFOUND' || code === 'NXDOMAIN';
}

/** True when Node's resolver accepts every entry (`ip`, `ip:port`, `[ipv6]:port`; no host names). */
export function isDnsServerList(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const servers = parseDnsServers(value);
  if (servers.length === 0) return false;
  try {
    new Resolver().setServers(servers);
    return true;
  } catch {
    return false;
  }
}

/** The one validation of DNS_SERVERS, for every service that resolves through it. */
export const IsDnsServerList = () =>
  ValidateBy({
    name: 'isDnsServerList',
    validator: {
      validate: isDnsServerList,
      defaultMessage: () =>
        'DNS_SERVERS must be comma-separated IP addresses, each optionally with a port (1.1.1.1,[2606:4700::1111]:53)',
    },
  });
