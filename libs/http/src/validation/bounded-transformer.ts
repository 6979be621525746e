import { createRequire } from 'node:module';
import * as classTransformer from 'class-transformer';
import type { ClassConstructor, ClassTransformOptions } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';

/** class-transformer's decorator registry (where `@Type` and `@Transform` record a property). */
interface TransformerMetadata {
  findTypeMetadata(target: unknown, property: string): unknown;
  findTransformMetadatas(target: unknown, property: string, transformationType: number): unknown[];
}
const transformerMetadata = (
  createRequire(import.meta.url)('class-transformer/cjs/storage.js') as { defaultMetadataStorage: TransformerMetadata }
).defaultMetadataStorage;
const PLAIN_TO_CLASS = 0;

interface Plan {
  /** Properties with validation rules: the only ones `whitelist` keeps. */
  declared: ReadonlySet<string>;
  /** Declared properties class-transformer has no rule for (`data: Record<string, unknown>`): their values are kept as parsed. */
  untouched: ReadonlySet<string>;
  /** Properties validated as one integer (`@IsInt()`): given as text, read only from plain decimal digits. */
  integers: readonly string[];
}

/** An integer as text: decimal digits, optionally signed with `-`; never `1e2`, `+5`, `0x10`, ` 5`, `5.0` or `1_000`. */
const INTEGER_TEXT = /^-?\d+$/;

const plans = new WeakMap<object, Plan>();

function planOf(cls: ClassConstructor<unknown>): Plan {
  let plan = plans.get(cls);
  if (!plan) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(
      cls,
      undefined as unknown as string,
      false,
      false,
      undefined,
    );
    const declared = new Set(rules.map((m) => m.propertyName));
    const integers = [...new Set(rules.filter((m) => m.name === 'isInt' && !m.each).map((m) => m.propertyName))];
    const untouched = new Set(
      [...declared].filter(
        (p) =>
          !transformerMetadata.findTypeMetadata(cls, p) &&
          transformerMetadata.findTransformMetadatas(cls, p, PLAIN_TO_CLASS).length === 0,
      ),
    );
    plans.set(cls, (plan = { declared, untouched, integers }));
  }
  return plan;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/**
 * A query's integers arrive as text, and `@Type(() => Number)` reads them with `Number()`, which
 * takes `1e2` as 100, `0x10` as 16 and ` 5`, `+5` or `5.0` as 5. Text that is not plain decimal
 * digits keeps its text instead, so `@IsInt()` refuses it (422 naming the parameter). One rule for
 * every DTO (a query's object has no prototype: it is not a plain object here).
 */
function keepNonDecimalIntegers(
  cls: ClassConstructor<unknown>,
  plain: object,
  instance: Record<string, unknown>,
): void {
  for (const key of planOf(cls).integers) {
    const given = (plain as Record<string, unknown>)[key];
    if (typeof given === 'string' && !INTEGER_TEXT.test(given)) instance[key] = given;
  }
}

/**
 * class-transformer, told only what the DTO declares. Its `plainToInstance` deep-copies every
 * nested value, with a quadratic de-duplication of each object's keys and several metadata lookups
 * per key: 50,000 keys took 8.7 s, 90 objects of 1,000 keys 1.5 s, all on the event loop. Here
 * the keys the global pipe's `whitelist` would strip are dropped first, and a declared property
 * with no `@Type` or `@Transform` (a free-form `data` object) keeps its parsed value instead of a
 * copy; class-transformer still builds the instance and every typed or transformed property.
 */
export const boundedTransformer = {
  ...classTransformer,
  plainToInstance<T>(cls: ClassConstructor<T>, plain: unknown, options?: ClassTransformOptions): T {
    if (typeof cls !== 'function' || !isPlainObject(plain)) {
      const instance = classTransformer.plainToInstance(cls, plain as object, options) as T;
      if (typeof cls === 'function' && plain !== null && typeof plain === 'object' && !Array.isArray(plain))
        keepNonDecimalIntegers(cls, plain, instance as Record<string, unknown>);
      return instance;
    }
    const { declared, untouched } = planOf(cls);
    const slim: Record<string, unknown> = {};
    const kept: [string, unknown][] = [];
    for (const key of Object.keys(plain)) {
      if (!declared.has(key)) continue;
      const value = plain[key];
      if (untouched.has(key) && value !== null && typeof value === 'object') kept.push([key, value]);
      else slim[key] = value;
    }
    const instance = classTransformer.plainToInstance(cls, slim, options) as Record<string, unknown>;
    for (const [key, value] of kept) instance[key] = value;
    keepNonDecimalIntegers(cls, plain, instance);
    return instance as T;
  },
};
