/** One dependency whose failure makes the process not ready (database, broker, ...). */
export interface HealthIndicator {
  name: string;
  check(): Promise<void>;
}

export interface HealthReport {
  status: 'ok' | 'error';
  checks: Record<string, { status: 'up' | 'down'; error?: string; latencyMs: number }>;
}

/** Indicators registered by the modules of this process; read by `GET /health/ready`. */
export class HealthRegistry {
  private readonly indicators = new Map<string, HealthIndicator>();
  private shuttingDown = false;

  register(indicator: HealthIndicator): void {
    this.indicators.set(indicator.name, indicator);
  }

  /** Called on SIGTERM so load balancers stop sending traffic while in-flight work finishes. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async report(timeoutMs = 2000): Promise<HealthReport> {
    const checks: HealthReport['checks'] = {};
    if (this.shuttingDown) checks.process = { status: 'down', error: 'shutting down', latencyMs: 0 };
    await Promise.all(
      [...this.indicators.values()].map(async (ind) => {
        const started = performance.now();
        try {
          await Promise.race([
            ind.check(),
            new Promise((_, reject) =>
              setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs).unref(),
            ),
          ]);
          checks[ind.name] = { status: 'up', latencyMs: Math.round(performance.now() - started) };
        } catch (err) {
          checks[ind.name] = {
            status: 'down',
            error: err instanceof Error ? err.message : String(err),
            latencyMs: Math.round(performance.now() - started),
          };
        }
      }),
    );
    return { status: Object.values(checks).every((c) => c.status === 'up') ? 'ok' : 'error', checks };
  }
}
