import { dkimEncryptionKey, type HeraldRuntime, IsDnsServerList, ServiceConfig, toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Min, MinLength } from 'class-validator';

const KEY_MESSAGE = { message: 'DKIM_ENCRYPTION_KEY must be at least 32 characters' };

/** The domains service's settings, in both modes. All optional; the distributed config below adds what it must have. */
export class DomainsSettings {
  /** Resolvers for verification lookups: `ip`, `ip:port`, `[v6]:port`, comma-separated (Node's resolver takes no host names). Unset: the system's. */
  @IsOptional()
  @IsString()
  @IsDnsServerList()
  DNS_SERVERS?: string;

  /**
   * Seals DKIM private keys at rest and on the bus; the sending service opens them with the same
   * key. Standalone: derived from INTERNAL_JWT_SECRET when unset (see resolveDkimEncryptionKey).
   */
  @IsOptional()
  @IsString()
  @MinLength(32, KEY_MESSAGE)
  DKIM_ENCRYPTION_KEY?: string;

  /** The SPF record recommended for a sender domain; a published one must contain its mechanisms. */
  @IsOptional()
  @Matches(/^v=spf1(\s|$)/i, { message: 'SPF_RECORD must start with v=spf1' })
  SPF_RECORD: string = 'v=spf1 a mx ~all';

  /** How often a pending domain is checked in the background. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  DOMAIN_CHECK_INTERVAL_MS: number = 300_000;

  /** How often a verified domain is checked again (it goes back to pending when its records are gone). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  DOMAIN_RECHECK_VERIFIED_MS: number = 3_600_000;
}

/** What the domains process needs in distributed mode, validated at boot. */
export class DomainsServiceConfig extends ServiceConfig {
  @IsString()
  @MinLength(32, KEY_MESSAGE)
  DKIM_ENCRYPTION_KEY!: string;
}

export const DOMAINS_SETTINGS = Symbol('DOMAINS_SETTINGS');
export const DKIM_ENCRYPTION_KEY = Symbol('DKIM_ENCRYPTION_KEY');

/**
 * The key that seals DKIM private keys: DKIM_ENCRYPTION_KEY, or in standalone mode one derived
 * from the internal secret by `dkimEncryptionKey` of @herald/core (the sending service derives the
 * same one, so it can open the keys it receives).
 */
export function resolveDkimEncryptionKey(settings: DomainsSettings, runtime: HeraldRuntime): string {
  if (!settings.DKIM_ENCRYPTION_KEY && runtime.mode === 'distributed')
    throw new Error('DKIM_ENCRYPTION_KEY is required in distributed mode');
  return dkimEncryptionKey(settings.DKIM_ENCRYPTION_KEY, runtime.internalJwtSecret);
}
