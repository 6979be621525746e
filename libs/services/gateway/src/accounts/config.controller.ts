import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { Public } from '@herald/http';
import { Controller, Get, Inject } from '@nestjs/common';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { oauthProviders } from './auth.controller.js';

export interface PublicConfig {
  mode: HeraldRuntime['mode'];
  signups: boolean;
  oauth: { providers: string[] };
  /** Herald can send its own account email (verification, password reset). */
  accountEmail: boolean;
  rateLimitPerMinute: number;
}

/** `GET /config`: which integrations are enabled; no authentication. */
@Public()
@Controller('config')
export class ConfigController {
  constructor(
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
  ) {}

  @Get()
  config(): PublicConfig {
    return {
      mode: this.runtime.mode,
      signups: !this.settings.DISABLE_SIGNUPS,
      oauth: { providers: oauthProviders(this.settings).map((p) => p.id) },
      accountEmail: Boolean(this.settings.SMTP_URL),
      rateLimitPerMinute: this.settings.RATE_LIMIT_PER_MINUTE,
    };
  }
}
