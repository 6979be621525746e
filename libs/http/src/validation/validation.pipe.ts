import { cacheValidationMetadata, compileValidityCheck, type ValidityCheck } from '@herald/contracts';
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { validationFailed, type FieldError } from '../errors/herald.exception.js';
import { boundedTransformer } from './bounded-transformer.js';

/** class-validator constraint → the spec's field error code (Zod-style names, e.g. invalid_string). */
const CODES: Record<string, string> = {
  isEmail: 'invalid_string',
  isEmailAddress: 'invalid_string',
  isDataObject: 'too_big',
  isUrl: 'invalid_string',
  isUuid: 'invalid_string',
  matches: 'invalid_string',
  isDateString: 'invalid_string',
  isIso8601: 'invalid_string',
  isString: 'invalid_type',
  isNumber: 'invalid_type',
  isInt: 'invalid_type',
  isBoolean: 'invalid_type',
  isObject: 'invalid_type',
  isArray: 'invalid_type',
  isDefined: 'required',
  isNotEmpty: 'too_small',
  minLength: 'too_small',
  maxLength: 'too_big',
  min: 'too_small',
  max: 'too_big',
  arrayMinSize: 'too_small',
  arrayMaxSize: 'too_big',
  isIn: 'invalid_enum_value',
  isEnum: 'invalid_enum_value',
  whitelistValidation: 'unrecognized_keys',
};

/** Flattens nested class-validator errors into `{field, message, code}` with dotted paths. */
export function toFieldErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix
      ? /^\d+$/.test(e.property)
        ? `${prefix}[${e.property}]`
        : `${prefix}.${e.property}`
      : e.property;
    const own = Object.entries(e.constraints ?? {}).map(([constraint, message]) => ({
      field,
      message,
      code: CODES[constraint] ?? (e.value === undefined ? 'required' : 'invalid'),
    }));
    return [...own, ...toFieldErrors(e.children ?? [], field)];
  });
}

/**
 * Nest's ValidationPipe, deciding a DTO with the class's rules resolved once (`compileValidityCheck`:
 * class-validator's own constraints, nested classes' included, without its per-call bookkeeping),
 * and stripping what `whitelist` strips. Only a DTO with a problem goes through
 * class-validator's `validate`, which then writes the errors as before. On `/v1/track` the
 * pipe's validation was 6 % of the main thread's time at capacity.
 */
export class HeraldValidationPipe extends ValidationPipe {
  private readonly rules = new Map<unknown, ValidityCheck | undefined>();

  protected override validate(
    object: object,
    options?: ValidatorOptions,
  ): Promise<ValidationError[]> | ValidationError[] {
    const rules = HeraldValidationPipe.decidesAlone(options) ? this.rulesOf(object) : undefined;
    if (!rules?.isValid(object)) return super.validate(object, options);
    if (options?.whitelist) rules.strip(object);
    return [];
  }

  /** The rules of the DTO class `object` is an instance of; none for the stand-ins the pipe validates for a primitive or array body. */
  private rulesOf(object: object): ValidityCheck | undefined {
    const cls = (object as { constructor?: unknown }).constructor;
    if (typeof cls !== 'function' || cls === Object || Object.getPrototypeOf(object) !== cls.prototype)
      return undefined;
    if (!this.rules.has(cls)) this.rules.set(cls, compileValidityCheck(cls as new () => object));
    return this.rules.get(cls);
  }

  /** Options under which validity is the rules' alone (no groups, nothing skipped, unknown keys stripped or kept, not refused). */
  private static decidesAlone(o: ValidatorOptions | undefined): boolean {
    return (
      o !== undefined &&
      o.forbidUnknownValues === false &&
      !o.groups?.length &&
      !o.always &&
      !o.strictGroups &&
      !o.skipMissingProperties &&
      !o.skipNullProperties &&
      !o.skipUndefinedProperties &&
      !o.forbidNonWhitelisted
    );
  }
}

/** The global validation pipe: DTOs are transformed and checked; failures are 422 with field errors. */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new HeraldValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    transformOptions: { enableImplicitConversion: false },
    transformerPackage: boundedTransformer,
    exceptionFactory: (errors) => validationFailed(toFieldErrors(errors)),
  });
}
