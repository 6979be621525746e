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
  /** Present in distributed mode. */
  kafka?: { brokers: string[]; clientId: string; sessionTimeoutMs?: number; maxWaitMs?: number };
}

export const HERALD_RUNTIME = Symbol('HERALD_RUNTIME');
