import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
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

  it.each([TrackLike, PageLike, Tagged, WithNested].map((c) => [c.name, c] as const))(
    'gives %s bodies the DTO, or the errors, that the stock pipe gives (random bodies, unknown keys stripped)',
    async (_name, cls) => {
      const stock = new ValidationPipe(options);
      const herald = new HeraldValidationPipe(options);
      let seed = 11;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
      const verdicts = { ok: 0, failed: 0 };
      for (let i = 0; i < 600; i++) {
        const body: Record<string, unknown> = { email: 'a@example.com', event: 'signup', tier: 'pro' };
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

  it('is the global pipe Herald installs', () => {
    expect(createValidationPipe()).toBeInstanceOf(HeraldValidationPipe);
  });
});
