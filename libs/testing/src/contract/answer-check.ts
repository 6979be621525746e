import type { ObservedAnswer } from './openapi-contract.js';

/** What checks an answer (an {@link OpenApiContract}): a problem, or undefined. */
export interface AnswerContract {
  problemOf(answer: ObservedAnswer): string | undefined;
}

const HERALD_ORIGINS = Symbol.for('herald.testing.heraldOrigins');
type Registry = { [HERALD_ORIGINS]?: Set<string> };

/**
 * Marks `baseUrl` as a Herald the test harness started (the standalone process, a topology's
 * gateway, the run's shared topology): every answer `fetch` gets from it in this test file is then
 * checked against the OpenAPI document (jest/after-env.ts). A service process behind the gateway is
 * not one: its internal routes are not the public API.
 */
export function checkAnswersOf(baseUrl: string): void {
  ((globalThis as Registry)[HERALD_ORIGINS] ??= new Set()).add(new URL(baseUrl).origin);
}

const isHerald = (url: URL) => (globalThis as Registry)[HERALD_ORIGINS]?.has(url.origin) ?? false;

/** How long {@link AnswerCheck.flush} waits for bodies still arriving (a stream that never ends is not judged). */
const FLUSH_DEADLINE_MS = 10_000;

/**
 * The contract test over the e2e suite: wraps `fetch` so that each answer of a Herald the harness
 * started (see {@link checkAnswersOf}) is read from a clone of the response (the test reads the
 * original) and checked by the contract; `flush` returns the problems seen since the last flush.
 * A followed redirect's answer is the target's, not the operation's, and is not checked.
 */
export class AnswerCheck {
  private readonly pending = new Set<Promise<void>>();
  private problems: string[] = [];

  /** `watches`: whose answers to check (default: the Herald origins of {@link checkAnswersOf}). */
  constructor(
    private readonly contract: () => Promise<AnswerContract>,
    private readonly watches: (url: URL) => boolean = isHerald,
  ) {}

  wrap(fetchFn: typeof fetch): typeof fetch {
    const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const res = await fetchFn(input, init);
      const request = typeof input === 'object' && 'method' in input ? input : undefined;
      const url = new URL(request?.url ?? String(input));
      if (!res.redirected && this.watches(url))
        this.observe((init?.method ?? request?.method ?? 'GET').toUpperCase(), url.pathname, res.clone());
      return res;
    };
    return wrapped as typeof fetch;
  }

  private observe(method: string, path: string, res: Response): void {
    const check = (async () => {
      let body: string;
      try {
        body = await res.text();
      } catch {
        return; // the connection ended before the body: the test's own concern
      }
      const answer = { method, path, status: res.status, contentType: res.headers.get('content-type'), body };
      const problem = (await this.contract()).problemOf(answer);
      if (problem) this.problems.push(problem);
    })().catch((err: unknown) => {
      this.problems.push(`${method} ${path}: the answer could not be checked: ${String(err)}`);
    });
    this.pending.add(check);
    void check.finally(() => this.pending.delete(check));
  }

  /** The problems of the answers received so far (waiting for their bodies), then forgotten. */
  async flush(): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FLUSH_DEADLINE_MS);
    });
    await Promise.race([Promise.all(this.pending), deadline]);
    clearTimeout(timer);
    const found = this.problems;
    this.problems = [];
    return found;
  }
}
