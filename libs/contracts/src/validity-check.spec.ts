import {
  ArrayMaxSize,
  getMetadataStorage,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Validate,
  validateSync,
  ValidateIf,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import * as contracts from './index.js';
import type { EventContract } from './event-contract.js';
import { compileValidityCheck } from './validity-check.js';

/** Values of every kind a payload property might be given, right or wrong. */
const POOL: unknown[] = [
  undefined,
  null,
  '',
  'x',
  'signup',
  'a@example.com',
  'a b@example.com',
  'a@b@c',
  'cnt_01',
  'prj_01',
  'data.plan',
  'x'.repeat(300),
  '2026-01-01T00:00:00.000Z',
  '2026-01-01',
  0,
  1,
  -1,
  1.5,
  Number.NaN,
  true,
  false,
  [],
  ['a', 'b'],
  [1, 2],
  ['a', 2],
  [null],
  {},
  { plan: 'pro' },
  new Date(0),
  new Set(['a']),
];

/** The primitive values a class's own rules name (an `IsIn` list, a length), so that some random payloads pass them. */
function namedValues(cls: new () => object): unknown[] {
  const named: unknown[] = [];
  for (const m of getMetadataStorage().getTargetValidationMetadatas(
    cls,
    undefined as unknown as string,
    false,
    false,
    undefined,
  )) {
    for (const c of (m.constraints ?? []) as unknown[])
      named.push(...(Array.isArray(c) ? c : [c]).filter((v) => ['string', 'number', 'boolean'].includes(typeof v)));
  }
  return named;
}

const validBySpec = (instance: object) => validateSync(instance, { forbidUnknownValues: false }).length === 0;

/**
 * Random instances of `cls` (each property mostly given a value class-validator accepts for it,
 * sometimes any value of the pool): the compiled check must say valid exactly when validateSync does.
 */
function expectSameVerdicts(cls: new () => object, runs = 400): { valid: number; invalid: number } {
  const check = compileValidityCheck(cls);
  expect(check).toBeDefined();
  const properties = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(cls, undefined as unknown as string, false, false, undefined)
        .map((m) => m.propertyName),
    ),
  ];
  const pool = [...POOL, ...namedValues(cls)];
  const accepted = new Map(
    properties.map((p) => [
      p,
      pool.filter(
        (v) =>
          !validateSync(Object.assign(new cls(), { [p]: v }), { forbidUnknownValues: false }).some(
            (e) => e.property === p,
          ),
      ),
    ]),
  );
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const verdicts = { valid: 0, invalid: 0 };
  for (let i = 0; i < runs; i++) {
    const instance = new cls() as Record<string, unknown>;
    for (const p of properties) {
      const ok = accepted.get(p)!;
      const value = ok.length > 0 && random() < 0.85 ? pick(ok) : pick(pool);
      if (value !== undefined || random() < 0.5) instance[p] = value;
    }
    const expected = validBySpec(instance);
    if (check!.isValid(instance) !== expected)
      throw new Error(
        `${cls.name}: the compiled check says ${!expected} for ${JSON.stringify(instance)}; validateSync says ${expected}`,
      );
    verdicts[expected ? 'valid' : 'invalid']++;
  }
  return verdicts;
}

describe('compiled validity check of a flat class', () => {
  const all = Object.values(contracts).filter(
    (x): x is EventContract<object> => typeof x === 'object' && x !== null && 'payloadClass' in x && 'topic' in x,
  );

  it('covers every event contract Herald declares', () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
    for (const c of all) expect(compileValidityCheck(c.payloadClass as new () => object)).toBeDefined();
  });

  it.each(all.map((c) => [c.topic, c] as const))(
    'decides %s payloads as validateSync does, valid and invalid ones',
    (_topic, contract) => {
      const { valid, invalid } = expectSameVerdicts(contract.payloadClass as new () => object);
      expect(valid).toBeGreaterThan(20);
      expect(invalid).toBeGreaterThan(20);
    },
  );

  it('applies IsOptional, ValidateIf, IsDefined and `each` rules as class-validator does', () => {
    class Sample {
      @IsOptional() @IsString({ each: true }) @ArrayMaxSize(2) tags?: unknown;
      @ValidateIf((o: Sample) => o.kind === 'limited') @IsInt() limit?: unknown;
      @IsIn(['open', 'limited']) kind!: unknown;
      @IsDefined() anything!: unknown;
      @IsOptional() @IsArray() @MaxLength(3, { each: true }) codes?: unknown;
    }
    const { valid, invalid } = expectSameVerdicts(Sample, 2000);
    expect(valid).toBeGreaterThan(20);
    expect(invalid).toBeGreaterThan(20);
  });

  it('declines a class whose rules it does not cover (groups, asynchronous constraints), which class-validator then checks alone', () => {
    class Grouped {
      @IsString({ groups: ['admin'] }) name!: string;
    }
    @ValidatorConstraint({ async: true })
    class Remote implements ValidatorConstraintInterface {
      validate(): Promise<boolean> {
        return Promise.resolve(false);
      }
    }
    class Checked {
      @Validate(Remote) name!: string;
    }
    expect(compileValidityCheck(Grouped)).toBeUndefined();
    expect(compileValidityCheck(Checked)).toBeUndefined();
  });
});
