import { IsString } from 'class-validator';

/**
 * Body of `POST /v1/verify`. Only the type is checked here: a string that is not a valid address is
 * a verification result (`valid: false`), not a 422.
 */
export class VerifyEmailDto {
  @IsString({ message: 'email must be a string' })
  email!: string;
}
