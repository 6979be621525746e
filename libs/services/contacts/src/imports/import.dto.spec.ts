import { DomainError } from '@herald/core';
import { createValidationPipe, HeraldException } from '@herald/http';
import { importOptions, StartImportQueryDto } from './import.dto.js';

const validate = (query: unknown) =>
  createValidationPipe().transform(query, {
    type: 'query',
    metatype: StartImportQueryDto,
  }) as Promise<StartImportQueryDto>;

const refusal = async (query: unknown) =>
  (await validate(query).then(
    () => undefined,
    (e: unknown) => e,
  )) as HeraldException;

describe('POST /contacts/import query', () => {
  it('verify and skipInvalid are the strings "true" and "false"; both default to false', async () => {
    expect(importOptions(await validate({}))).toEqual({ verify: false, skipInvalid: false });
    expect(importOptions(await validate({ verify: 'true' }))).toEqual({ verify: true, skipInvalid: false });
    expect(importOptions(await validate({ verify: 'true', skipInvalid: 'true' }))).toEqual({
      verify: true,
      skipInvalid: true,
    });
    expect(importOptions(await validate({ verify: 'false', skipInvalid: 'false' }))).toEqual({
      verify: false,
      skipInvalid: false,
    });
  });

  it.each([
    [{ verify: 'yes' }, 'verify'],
    [{ verify: '1' }, 'verify'],
    [{ verify: 'TRUE' }, 'verify'],
    [{ verify: ['true', 'false'] }, 'verify'],
    [{ verify: 'true', skipInvalid: 'on' }, 'skipInvalid'],
  ])('anything else is 422 with a field error on the flag: %j', async (query, field) => {
    const err = await refusal(query);
    expect(err).toBeInstanceOf(HeraldException);
    expect(err.getStatus()).toBe(422);
    expect(err.details.errors).toEqual([
      { field, message: `${field} must be "true" or "false"`, code: 'invalid_type' },
    ]);
  });

  it('skipInvalid=true without verify=true is refused on skipInvalid (only verified rows can be invalid)', async () => {
    const options = validate({ skipInvalid: 'true' }).then(importOptions);
    await expect(options).rejects.toBeInstanceOf(DomainError);
    await expect(options).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ field: 'skipInvalid', code: 'invalid' }] },
    });
  });
});
