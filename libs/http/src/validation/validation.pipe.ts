import { cacheValidationMetadata } from '@herald/contracts';
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { validationFailed, type FieldError } from '../errors/herald.exception.js';

/** class-validator constraint → the spec's field error code (Zod-style names, e.g. invalid_string). */
const CODES: Record<string, string> = {
  isEmail: 'invalid_string',
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
    const field = prefix ? (/^\d+$/.test(e.property) ? `${prefix}[${e.property}]` : `${prefix}.${e.property}`) : e.property;
    const own = Object.entries(e.constraints ?? {}).map(([constraint, message]) => ({
      field,
      message,
      code: CODES[constraint] ?? (e.value === undefined ? 'required' : 'invalid'),
    }));
    return [...own, ...toFieldErrors(e.children ?? [], field)];
  });
}

/** The global validation pipe: DTOs are transformed and checked; failures are 422 with field errors. */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => validationFailed(toFieldErrors(errors)),
  });
}
