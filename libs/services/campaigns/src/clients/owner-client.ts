import { InternalClient } from '@herald/auth';
import type { HeraldRuntime } from '@herald/core';
import { CAMPAIGNS } from '../consumer.js';

/** An internal client to another service: itself in standalone mode, `url` in distributed mode. */
export function ownerClient(
  runtime: HeraldRuntime,
  target: string,
  url: string | undefined,
  variable: string,
  timeoutMs = 10_000,
): InternalClient {
  const baseUrl = () => {
    const u = runtime.mode === 'standalone' ? runtime.selfUrl : url;
    if (!u) throw new Error(`${variable} is not configured`);
    return u;
  };
  return new InternalClient(CAMPAIGNS, target, baseUrl, runtime.internalJwtSecret, timeoutMs);
}
