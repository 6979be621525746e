import type { DataSource } from 'typeorm';
import type { JobState } from './job.entity.js';
import { jobsChannel } from './job-queue.js';
import { JobStore } from './job.store.js';

export const JOBS_USAGE = `usage: main.js jobs list [--state failed|queued|running|completed] [--queue <name>] [--limit <n>]
       main.js jobs retry <job id>`;

const STATES: readonly JobState[] = ['queued', 'running', 'completed', 'failed'];

/**
 * The operator's command on a service's jobs (`main.js jobs …`, with the service's DATABASE_URL):
 * `list` prints jobs as JSON lines (by default the dead-lettered ones: state `failed`, attempts
 * exhausted, with their last error); `retry <id>` puts a failed job back in its queue with its
 * attempts reset, and wakes the service's workers. Returns the exit code.
 */
export async function runJobsCommand(
  service: string,
  db: DataSource,
  args: string[],
  out: (line: string) => void,
): Promise<number> {
  const store = new JobStore(db);
  const [verb, ...rest] = args;
  if (verb === 'list') {
    const opts = flags(rest);
    if (!opts) return usage(out);
    const state = (opts.state ?? 'failed') as JobState;
    const limit = Number(opts.limit ?? 100);
    if (!STATES.includes(state) || !Number.isInteger(limit) || limit < 1) return usage(out);
    for (const job of await store.list([state], opts.queue, limit)) out(JSON.stringify({ service, ...job }));
    return 0;
  }
  if (verb === 'retry' && rest.length === 1) {
    const id = rest[0]!;
    if (await store.retry(id, jobsChannel(service))) {
      out(JSON.stringify({ service, id, retried: true }));
      return 0;
    }
    out(JSON.stringify({ service, id, retried: false, reason: 'no failed job with this id' }));
    return 1;
  }
  return usage(out);
}

function usage(out: (line: string) => void): number {
  out(JOBS_USAGE);
  return 2;
}

/** `--name value` pairs; undefined when anything else is there. */
function flags(args: string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!;
    const value = args[i + 1];
    if (!['--state', '--queue', '--limit'].includes(name) || value === undefined) return undefined;
    out[name.slice(2)] = value;
  }
  return out;
}
