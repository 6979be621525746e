import type { KafkaSecuritySettings } from './kafka-config.js';

import type { RetentionSettings } from './retention-config.js';

/** How this process runs, resolved from validated config at boot and provided to every module. */
export interface HeraldRuntime {
  mode: 'standalone' | 'distributed';
  databaseUrl: string;
  databasePoolSize: number;
  internalJwtSecret: string;
  /** Lease of a running background job: a crashed worker's job is picked up again after this. */
  jobLeaseMs: number;
  /** Standalone: this process's own loopback URL (set once it listens), the target of internal calls. */
  selfUrl?: string;
  /**
   * Standalone: resolves with {@link selfUrl} once the process listens. Set before the services boot,
   * so that an internal call made earlier (a job resumed at boot) waits for it: see {@link internalBaseUrl}.
   */
  listening?: Promise<string>;
  /**
   * Read-your-writes (docs/consistency.md): whether requests wait for the copies they read to apply
   * the project's earlier writes, and for how long at most. Absent: on, 5 s.
   */
  readYourWrites?: { enabled: boolean; timeoutMs: number };
  /** Distributed: where the other services listen (a service asks the producers it consumes from). */
  peerUrls?: Partial<Record<string, string>>;
  /** How long bookkeeping rows (inbox, dead letters, jobs) are kept (docs/operations.md, Retention). Absent: the defaults. */
  retention?: RetentionSettings;
  /** Present in distributed mode. */
  kafka?: {
    brokers: string[];
    clientId: string;
    sessionTimeoutMs?: number;
    maxWaitMs?: number;
    groupPrefix?: string;
    /** TLS and SASL (KAFKA_SSL*, KAFKA_SASL_*): none when absent. */
    security?: KafkaSecuritySettings;
  };
}

export const HERALD_RUNTIME = Symbol('HERALD_RUNTIME');

/**
 * The base URL of an internal call to another service. Standalone: this very process, waiting until
 * it listens when called before (a job resumed at boot runs before `listen` resolves). Distributed:
 * `configured`, the target's `<NAME>_URL` (`variable` names it in the error when it is missing).
 */
export async function internalBaseUrl(
  runtime: HeraldRuntime,
  configured: string | undefined,
  variable: string,
): Promise<string> {
  if (runtime.mode === 'standalone') {
    const self = runtime.selfUrl ?? (await runtime.listening);
    if (self) return self;
    throw new Error('this standalone process has no URL of its own yet (it does not listen)');
  }
  if (!configured) throw new Error(`${variable} is not configured`);
  return configured;
}
