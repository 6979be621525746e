import { InternalClient } from '@herald/auth';
import { internalBaseUrl, type HeraldRuntime } from '@herald/core';
import { CAMPAIGNS } from '../consumer.js';

/**
 * An internal client to another service: itself in standalone mode (from the first call after boot,
 * before it listens), `url` in distributed mode.
 */
export function ownerClient(
  runtime: HeraldRuntime,
  target: string,
  url: string | undefined,
  variable: string,
  timeoutMs = 10_000,
): InternalClient {
  const baseUrl = () => internalBaseUrl(runtime, url, variable);
  return new InternalClient(CAMPAIGNS, target, baseUrl, runtime.internalJwtSecret, timeoutMs);
}
