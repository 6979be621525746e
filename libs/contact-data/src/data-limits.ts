import { findJsonProblem, type FieldProblem, type JsonLimits } from '@herald/core';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { dataSize, MAX_DATA_BYTES } from './data-patch.js';

/**
 * The documented limits of a contact's data object (docs/contacts.md, "Limits of the data object"),
 * on every write path: contacts API, /v1/track, /v1/send, CSV rows, workflows. Checked on what is
 * sent, in one pass linear in its size, before the patch is applied or anything is written.
 */
export const DATA_LIMITS: JsonLimits = {
  /** Objects and arrays nested in one another, `data` itself included (`data.profile.address.city` is 3). */
  maxDepth: 10,
  /** Keys of one object (`data` itself or a nested one). */
  maxKeys: 500,
  /** Items of one array. */
  maxItems: 1000,
  /** Values in the whole data object. */
  maxValues: 5000,
  /** Characters of one key. */
  maxKeyLength: 256,
  /** Characters of one string value. */
  maxStringLength: 16_384,
};

/**
 * The first problem of a data object sent by a caller (`field` names it in the request: `data`,
 * `to[0].data`), or undefined: a breach of DATA_LIMITS, text PostgreSQL cannot hold (a NUL or a lone
 * surrogate, in a key or a value), or more than MAX_DATA_BYTES as JSON.
 */
export function dataObjectProblem(data: unknown, field = 'data'): FieldProblem | undefined {
  const problem = findJsonProblem(data, DATA_LIMITS, field);
  if (problem)
    return {
      field: problem.path,
      message:
        problem.limit === 'text'
          ? problem.message
          : `${problem.message} (data limit ${problem.limit}: see docs/contacts.md)`,
      code: problem.limit === 'text' ? 'invalid_string' : 'too_big',
    };
  if (dataSize(data) > MAX_DATA_BYTES)
    return { field, message: `${field} must be at most ${MAX_DATA_BYTES} bytes as JSON`, code: 'too_big' };
  return undefined;
}

/** DTO rule: an object within {@link DATA_LIMITS} (the message names the path and the limit). */
export const IsDataObject = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isDataObject',
      validator: {
        validate: (value: unknown) =>
          value !== null && typeof value === 'object' && !Array.isArray(value) && !dataObjectProblem(value),
        defaultMessage: (args) =>
          args && args.value !== null && typeof args.value === 'object' && !Array.isArray(args.value)
            ? dataObjectProblem(args.value, args.property)!.message
            : `${args?.property ?? 'data'} must be an object`,
      },
    },
    options,
  );
