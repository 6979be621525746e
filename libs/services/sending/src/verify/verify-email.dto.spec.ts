import { createValidationPipe, HeraldException } from '@herald/http';
import { VerifyEmailDto } from './verify-email.dto.js';

const validate = (body: unknown) => createValidationPipe().transform(body, { type: 'body', metatype: VerifyEmailDto });

describe('POST /v1/verify body', () => {
  it.each([[{}], [{ email: 42 }], [{ email: null }], [{ email: ['a@example.com'] }]])(
    'a missing or non-string email is 422: %j',
    async (body) => {
      const err = (await validate(body).then(
        () => undefined,
        (e: unknown) => e,
      )) as HeraldException;
      expect(err).toBeInstanceOf(HeraldException);
      expect(err.getStatus()).toBe(422);
    },
  );

  it('a string that is not an address passes: it is answered with valid false, not 422', async () => {
    await expect(validate({ email: 'not an email' })).resolves.toEqual(
      Object.assign(new VerifyEmailDto(), { email: 'not an email' }),
    );
  });
});
