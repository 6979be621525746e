import {
  ServiceConfig,
  TestOnly,
  toBool,
  toFloat,
  toInt,
  UPSTREAMS,
  urlVariableOf,
  type UpstreamName,
} from '@herald/core';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s]+$/;
const PRICES = /^[A-Za-z0-9_-]+=(\d+|-)\/(\d+|-)\/(\d+|-)(,[A-Za-z0-9_-]+=(\d+|-)\/(\d+|-)\/(\d+|-))*$/;

/** The gateway's settings, in both modes. All optional; the distributed config below adds what it must have. */
export class GatewaySettings {
  /** Refuse POST /auth/signup (the first account of a fresh install is still allowed). */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DISABLE_SIGNUPS: boolean = false;

  /** API requests per minute per project. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE: number = 1000;

  /** Public base URL of Herald (links in emails, cookie `Secure` when https). */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'APP_URL must be an http(s) URL' })
  APP_URL: string = 'http://localhost:3000';

  /** Herald's own mail (verification, password reset): smtp(s)://user:pass@host:port. Unset: links are logged. */
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsOptional()
  @IsString()
  MAIL_FROM: string = 'Herald <no-reply@localhost>';

  /** Signs session cookies; derived from INTERNAL_JWT_SECRET when unset. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters' })
  SESSION_SECRET?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 90)
  SESSION_TTL_HOURS: number = 24 * 7;

  /** Shared rate-limit and login-throttle state; required in distributed mode, memory otherwise. */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  /** Sender reputation (docs/billing.md): rates are fractions (0.003 = 0.3%). */
  @IsOptional() @Transform(toFloat) @IsNumber() @Min(0) @Max(1) REPUTATION_COMPLAINT_WARN: number = 0.001;
  @IsOptional() @Transform(toFloat) @IsNumber() @Min(0) @Max(1) REPUTATION_COMPLAINT_SUSPEND: number = 0.003;
  @IsOptional() @Transform(toFloat) @IsNumber() @Min(0) @Max(1) REPUTATION_BOUNCE_WARN: number = 0.05;
  @IsOptional() @Transform(toFloat) @IsNumber() @Min(0) @Max(1) REPUTATION_BOUNCE_SUSPEND: number = 0.1;
  /** No warning or suspension before a window holds this many sends. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) REPUTATION_MIN_SENDS: number = 100;

  /**
   * Tests and rehearsals only: the instant (ISO 8601) the billing clock shows when the gateway starts;
   * it runs at real speed from there, and event times move by the same offset (docs/billing.md, "The
   * billing clock"). Unset (the default): the real clock. Refused when NODE_ENV is production.
   */
  @IsOptional()
  @TestOnly()
  @IsISO8601({ strict: true }, { message: 'BILLING_CLOCK_START must be an ISO 8601 instant' })
  BILLING_CLOCK_START?: string;

  /** Stripe (optional): billing through the payment provider is enabled only when all three are set. */
  @IsOptional()
  @IsString()
  @Matches(/^(sk|rk)_/, { message: 'STRIPE_SECRET_KEY must start with sk_ or rk_' })
  STRIPE_SECRET_KEY?: string;

  @IsOptional()
  @IsString()
  @Matches(/^whsec_/, { message: 'STRIPE_WEBHOOK_SECRET must start with whsec_' })
  STRIPE_WEBHOOK_SECRET?: string;

  /**
   * The plans: `<price id>=<transactional cap>/<campaign cap>/<workflow cap>` separated by commas, a
   * cap `-` for none (`price_basic=10000/50000/10000,price_pro=-/-/-`). The first is checkout's default.
   */
  @IsOptional()
  @IsString()
  @Matches(PRICES, { message: 'STRIPE_PRICES must be <price id>=<cap>/<cap>/<cap>,… (a cap is a number or -)' })
  STRIPE_PRICES?: string;

  /**
   * Tests only: where the SDK sends its requests (a loopback stand-in), e.g. http://127.0.0.1:12111;
   * refused when NODE_ENV is production (it would send the Stripe secret key there).
   */
  @IsOptional()
  @TestOnly()
  @Matches(HTTP_URL, { message: 'STRIPE_API_URL must be an http(s) URL' })
  STRIPE_API_URL?: string;

  /** OAuth login with GitHub (docs/adr/0029-oauth-login.md): enabled when both id and secret are set. */
  @IsOptional() @IsString() GITHUB_CLIENT_ID?: string;
  @IsOptional() @IsString() GITHUB_CLIENT_SECRET?: string;

  /** GitHub's web origin (authorize, token); a GitHub Enterprise server's, e.g. https://github.example.com. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'GITHUB_URL must be an http(s) URL' })
  GITHUB_URL: string = 'https://github.com';

  /** GitHub's REST API (the user and their emails); GitHub Enterprise: https://github.example.com/api/v3. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'GITHUB_API_URL must be an http(s) URL' })
  GITHUB_API_URL: string = 'https://api.github.com';

  /** OAuth login with Google: enabled when both id and secret are set. */
  @IsOptional() @IsString() GOOGLE_CLIENT_ID?: string;
  @IsOptional() @IsString() GOOGLE_CLIENT_SECRET?: string;

  /**
   * Tests only: one origin serving Google's authorize (`/o/oauth2/v2/auth`), token (`/token`) and
   * userinfo (`/oauth2/v3/userinfo`) endpoints (a loopback stand-in); refused when NODE_ENV is production.
   */
  @IsOptional()
  @TestOnly()
  @Matches(HTTP_URL, { message: 'GOOGLE_OAUTH_URL must be an http(s) URL' })
  GOOGLE_OAUTH_URL?: string;
}

/** What the gateway process needs in distributed mode, validated at boot. */
export class GatewayServiceConfig extends ServiceConfig {
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' }) REDIS_URL!: string;
}

// `<SERVICE>_URL` for every service behind the gateway (the one list in @herald/core): optional in
// the settings (standalone calls services in-process), required by the distributed config.
for (const service of UPSTREAMS) {
  const variable = urlVariableOf(service);
  IsOptional()(GatewaySettings.prototype, variable);
  Matches(HTTP_URL, { message: `${variable} must be an http(s) URL` })(GatewaySettings.prototype, variable);
  Matches(HTTP_URL, { message: `${variable} must be an http(s) URL` })(GatewayServiceConfig.prototype, variable);
}

/** Where the gateway forwards a service's routes in distributed mode (`CONTACTS_URL`…). */
export function upstreamUrl(settings: GatewaySettings, service: UpstreamName): string | undefined {
  return (settings as unknown as Record<string, string | undefined>)[urlVariableOf(service)];
}

export const GATEWAY_SETTINGS = Symbol('GATEWAY_SETTINGS');
