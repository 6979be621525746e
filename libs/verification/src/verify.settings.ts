import { createResolver, IsDnsServerList, toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { DnsResolver } from './domain-dns.js';

/** Settings of POST /v1/verify and of verifying imports, read from the environment at boot (`loadConfig(VerifySettings)`). */
export class VerifySettings {
  /** Resolvers for the MX/A/AAAA/NS/SOA lookups; unset: the system's resolvers (/etc/resolv.conf). */
  @IsOptional()
  @IsString()
  @IsDnsServerList()
  DNS_SERVERS?: string;

  /** Overall deadline of one verification's DNS lookups; a lookup still running then counts as timed out. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(30_000)
  VERIFY_TIMEOUT_MS: number = 3000;

  /** Domains a verifying import (`POST /contacts/import?verify=true`) looks up at once, per import. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  IMPORT_VERIFY_CONCURRENCY: number = 16;
}

export const VERIFY_SETTINGS = Symbol('VERIFY_SETTINGS');

/** Makes a fresh resolver for one verification (the verifier cancels its outstanding queries at the deadline). */
export type DnsResolverFactory = () => DnsResolver;
export const DNS_RESOLVER_FACTORY = Symbol('DNS_RESOLVER_FACTORY');

/**
 * Resolvers through DNS_SERVERS with a per-try timeout of a third of the deadline, so a lost UDP
 * packet is retried once before the deadline ends the lookup.
 */
export function dnsResolverFactory(settings: VerifySettings): DnsResolverFactory {
  const timeoutMs = Math.max(50, Math.floor(settings.VERIFY_TIMEOUT_MS / 3));
  return () => createResolver({ servers: settings.DNS_SERVERS, timeoutMs, tries: 2 });
}
