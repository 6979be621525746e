/**
 * The benches `npm run bench -- all` runs (bench/all.bench.ts), each with its short profile. A new
 * bench joins here: test/architecture/bench-suite.spec.ts fails while one of bench/ is missing.
 */
export interface BenchPlan {
  name: string;
  /** The short profile: the bench's own size settings, cut. */
  short: Record<string, string>;
  /** Why it does not run here (a missing prerequisite), or undefined. */
  skip?: () => string | undefined;
  /** Figures without a target of their own: judging nothing is not a failure. */
  figuresOnly?: boolean;
}

/** Every bench of bench/, in the order `all` runs them (cheapest first, so a broken build fails fast). */
export const BENCHES: readonly BenchPlan[] = [
  { name: 'billing-admission', figuresOnly: true, short: { BENCH_REQUESTS: '500' } },
  { name: 'gateway-latency', figuresOnly: true, short: { BENCH_REQUESTS: '1000' } },
  { name: 'cold-start', figuresOnly: true, short: {} },
  { name: 'hostile-input', short: { BENCH_REPEAT: '1' } },
  { name: 'contacts-import', short: { BENCH_ROWS: '50000' } },
  { name: 'contacts-import-verify', figuresOnly: true, short: { BENCH_ROWS: '10000', BENCH_ROUNDS: '1' } },
  { name: 'contacts-search', short: { BENCH_CONTACTS: '200000', BENCH_SEARCHES: '200' } },
  { name: 'contacts-track', short: { BENCH_SECONDS: '8' } },
  { name: 'inbox-retention', short: { BENCH_EVENTS: '400000' } },
  { name: 'analytics', short: { BENCH_EVENTS: '200000', BENCH_PROJECTS: '10', BENCH_REQUESTS: '100' } },
  { name: 'segments', short: { BENCH_CONTACTS: '200000', BENCH_RUNS: '3' } },
  { name: 'segments-track', short: { BENCH_CONTACTS: '20000', BENCH_SECONDS: '8' } },
  {
    name: 'sending',
    short: { BENCH_DELIVER: '1500', BENCH_SEND: '500', BENCH_CAPACITY_MS: '6000', BENCH_BATCH_ROUNDS: '3' },
  },
  { name: 'campaigns', short: { BENCH_RECIPIENTS: '5000' } },
  { name: 'campaign-priority', short: { BENCH_RECIPIENTS: '4000', BENCH_RAW: '2000' } },
  { name: 'workflows', short: { BENCH_SECONDS: '8', BENCH_TIMERS: '100000', BENCH_STEPS: '10000' } },
  {
    name: 'jobs-vs-pg-boss',
    figuresOnly: true,
    short: { BENCH_JOBS: '1000', BENCH_ROUNDS: '1' },
    // pg-boss is not one of Herald's dependencies (ADR 0018): the comparison runs where it is installed
    skip: () => (process.env.PG_BOSS_MODULE ? undefined : 'PG_BOSS_MODULE unset (ADR 0018)'),
  },
];
