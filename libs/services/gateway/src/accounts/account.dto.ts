import { IsEmailAddress } from '@herald/contracts';
import { IsOptional, IsString, Length, MaxLength, MinLength } from 'class-validator';

export class SignUpDto {
  @IsEmailAddress({ message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @IsString()
  @MinLength(8, { message: 'password must be at least 8 characters' })
  @MaxLength(200)
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  /**
   * The token of a project invitation sent to `email`: the account is created verified and joins
   * the project (docs/authentication.md, "Invitations").
   */
  @IsOptional()
  @IsString()
  @Length(64, 64, { message: 'invitationToken must be the 64-character token from the invitation link' })
  invitationToken?: string;
}

export class LogInDto {
  @IsEmailAddress({ message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  password!: string;
}

export class TokenDto {
  @IsString()
  @Length(64, 64, { message: 'token must be the 64-character token from the link' })
  token!: string;
}

export class RequestPasswordResetDto {
  @IsEmailAddress({ message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;
}

export class ResetPasswordDto extends TokenDto {
  @IsString()
  @MinLength(8, { message: 'password must be at least 8 characters' })
  @MaxLength(200)
  password!: string;
}

/** A user as the API shows it. */
export interface UserView {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
  createdAt: string;
}
