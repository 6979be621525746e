import { evalToken, tags, TypeGuards, type Context, type Emitter, type Liquid } from 'liquidjs';

/** Thrown when a render has done more steps than its budget; liquidjs wraps it, `rootCause` finds it. */
export class WorkLimitError extends Error {
  constructor(readonly limit: number) {
    super('template work limit exceeded');
  }
}

/** liquidjs' render-time limiter: `check(now)` runs before every tag and output a render executes. */
interface RenderLimiter {
  check(now: number): void;
  use(count: number): void;
}

/**
 * One render's budget, passed to liquidjs as its render limiter: liquidjs calls `check(now)` before
 * every template node it renders (every tag, output and text, in every loop iteration), so counting
 * those calls counts the work done, whatever the tag (`for`, `tablerow`, `cycle`, `increment`, …).
 * It also enforces the wall-clock deadline, as liquidjs' own limiter does. Loops over a range
 * charge the whole range before liquidjs allocates it (see `registerBudgetedLoops`).
 */
export class RenderBudget implements RenderLimiter {
  private steps = 0;

  constructor(
    readonly maxSteps: number,
    private readonly deadline: number,
  ) {}

  check(now: number): void {
    this.charge(1);
    if (now > this.deadline) throw new Error('template render limit exceeded');
  }

  use(count: number): void {
    this.charge(count);
  }

  charge(count: number): void {
    this.steps += count;
    if (!(this.steps <= this.maxSteps)) throw new WorkLimitError(this.maxSteps);
  }
}

type LoopTag = InstanceType<typeof tags.for> & { collection: unknown };

/**
 * `for` and `tablerow` over a literal range (`(1..n)`) charge its n iterations to the render budget
 * before liquidjs builds the range: liquidjs allocates the whole range as an array first, and
 * building 10 million numbers alone takes seconds, before any limit is checked again.
 */
export function registerBudgetedLoops(engine: Liquid): void {
  for (const name of ['for', 'tablerow'] as const) {
    const Base = tags[name] as unknown as new (...args: unknown[]) => LoopTag;
    const baseRender = Base.prototype.render as (
      ctx: Context,
      emitter: Emitter,
    ) => Generator<unknown, unknown, unknown>;
    class Budgeted extends Base {
      override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
        const collection = this.collection;
        const budget = (ctx as unknown as { renderLimit: unknown }).renderLimit;
        if (budget instanceof RenderBudget && TypeGuards.isRangeToken(collection as never)) {
          const range = collection as { lhs: Parameters<typeof evalToken>[0]; rhs: Parameters<typeof evalToken>[0] };
          const low = Number(yield evalToken(range.lhs, ctx));
          const high = Number(yield evalToken(range.rhs, ctx));
          if (high >= low) budget.charge(high - low + 1);
        }
        yield* baseRender.call(this, ctx, emitter);
      }
    }
    engine.registerTag(name, Budgeted as never);
  }
}
