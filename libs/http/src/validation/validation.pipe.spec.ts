import { jest } from '@jest/globals';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { createValidationPipe, HeraldValidationPipe } from './validation.pipe.js';

class TrackLike {
  @IsEmail() @MaxLength(320) email!: string;
  @IsString() @MinLength(1) @MaxLength(20) event!: string;
  @IsOptional() @IsObject() data?: Record<string, unknown>;
  @IsOptional() @IsBoolean() subscribed?: boolean;
}
class PageLike {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit: number = 20;
  @IsOptional() @IsIn(['asc', 'desc']) order?: string;
}
class Tagged extends PageLike {
  @IsOptional() @IsString({ each: true }) @ArrayMaxSize(2) tags?: string[];
}
class Inner {
  @IsString() @MinLength(2) tier!: string;
}
class WithNested {
  @IsEmail() email!: string;
  @IsOptional() @ValidateNested() @Type(() => Inner) profile?: Inner;
}
class WithItems {
  @IsArray() @ArrayMaxSize(3) @ValidateNested({ each: true }) @Type(() => Inner) items!: Inner[];
  @IsOptional() @ValidateNested() @Type(() => WithNested) owner?: WithNested;
}

const VALUES: unknown[] = [
  undefined,
  null,
  '',
  'x',
  'signup',
  'a@example.com',
  'not an email',
  'x'.repeat(400),
  '5',
  '500',
  'asc',
  'up',
  0,
  1,
  7,
  1.5,
  101,
  true,
  false,
  [],
  ['a'],
  ['a', 'b', 'c'],
  [1],
  {},
  { plan: 'pro' },
  { tier: 'pro' },
  { tier: 'p' },
  { tier: 'pro', extra: 1 },
  [{ tier: 'pro' }, { tier: 'gold', extra: 'x' }],
  [{ tier: 'pro' }, { tier: 'p' }],
  [{ tier: 'pro' }, 'x'],
  [{ tier: 'pro' }, null],
  [{ tier: 'pro' }, [{ tier: 'gold' }]],
  { email: 'a@example.com', profile: { tier: 'pro', extra: true }, extra: 2 },
  { email: 'a@example.com', profile: { tier: 'p' } },
];
const EXTRA_KEYS = [
  'email',
  'event',
  'data',
  'subscribed',
  'limit',
  'order',
  'tags',
  'profile',
  'items',
  'owner',
  'unknown',
  'constructor',
];

/** What a pipe made of a body: the DTO's own enumerable properties and its class, or the errors it answered with. */
async function outcome(pipe: ValidationPipe, value: unknown, metatype: ArgumentMetadata['metatype']) {
  try {
    const dto = (await pipe.transform(value, { type: 'body', metatype })) as object;
    return { ok: true, class: (dto as object | null)?.constructor?.name, props: JSON.stringify(dto) };
  } catch (err) {
    return {
      ok: false,
      errors: JSON.stringify((err as { getResponse?: () => unknown }).getResponse?.() ?? String(err)),
    };
  }
}

describe('HeraldValidationPipe: Nest ValidationPipe with rules resolved once', () => {
  const options = {
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    transformOptions: { enableImplicitConversion: false },
  } as const;

  it.each([TrackLike, PageLike, Tagged, WithNested, WithItems].map((c) => [c.name, c] as const))(
    'gives %s bodies the DTO, or the errors, that the stock pipe gives (random bodies, unknown keys stripped)',
    async (_name, cls) => {
      const stock = new ValidationPipe(options);
      const herald = new HeraldValidationPipe(options);
      let seed = 11;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
      const verdicts = { ok: 0, failed: 0 };
      for (let i = 0; i < 600; i++) {
        const body: Record<string, unknown> = {
          email: 'a@example.com',
          event: 'signup',
          tier: 'pro',
          items: [{ tier: 'pro', extra: 1 }],
        };
        for (const key of EXTRA_KEYS) if (random() < 0.35) body[key] = pick(VALUES);
        const value = random() < 0.05 ? pick(VALUES) : body; // sometimes not an object at all
        const [a, b] = [
          await outcome(stock, structuredClone(value), cls),
          await outcome(herald, structuredClone(value), cls),
        ];
        expect({ value, outcome: b }).toEqual({ value, outcome: a });
        verdicts[a.ok ? 'ok' : 'failed']++;
      }
      expect(verdicts.ok).toBeGreaterThan(30);
      expect(verdicts.failed).toBeGreaterThan(30);
    },
  );

  it('decides a list of nested DTOs itself, stripping their unknown keys as class-validator would', async () => {
    const herald = new HeraldValidationPipe(options);
    const validate = jest.spyOn(ValidationPipe.prototype as unknown as { validate: () => unknown }, 'validate');
    try {
      const dto = await herald.transform(
        {
          items: [{ tier: 'pro', extra: 1 }],
          owner: { email: 'a@example.com', profile: { tier: 'gold', x: 2 } },
          y: 3,
        },
        { type: 'body', metatype: WithItems },
      );
      expect(JSON.stringify(dto)).toBe(
        JSON.stringify({ items: [{ tier: 'pro' }], owner: { email: 'a@example.com', profile: { tier: 'gold' } } }),
      );
      expect(validate).not.toHaveBeenCalled(); // class-validator's own pass only runs for a problem
    } finally {
      validate.mockRestore();
    }
  });

  it('is the global pipe Herald installs', () => {
    expect(createValidationPipe()).toBeInstanceOf(HeraldValidationPipe);
  });
});
