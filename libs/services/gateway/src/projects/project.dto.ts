import { IsEmailAddress, type ProjectRole } from '@herald/contracts';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export const ROLES: readonly ProjectRole[] = ['OWNER', 'ADMIN', 'MEMBER'];

export class CreateProjectDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;
}

export class UpdateProjectDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  /** A disabled project's API keys answer 403 PROJECT_DISABLED. */
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}

export class AddMemberDto {
  @IsEmailAddress({ message: 'email must be a valid email address' })
  email!: string;

  @IsOptional()
  @IsIn(ROLES)
  role: ProjectRole = 'MEMBER';
}

export class AcceptInvitationDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token!: string;
}

export class ChangeRoleDto {
  @IsIn(ROLES)
  role!: ProjectRole;
}

export interface KeyView {
  /** The first characters of the key; the full key is shown only when created or rotated. */
  prefix: string;
  createdAt: string;
}

export interface ProjectView {
  id: string;
  name: string;
  disabled: boolean;
  role: ProjectRole;
  createdAt: string;
  /**
   * The live keys, and the test keys (`sk_test_…`, `pk_test_…`: sends that never reach a relay,
   * docs/test-mode.md); a test key is null for a project created before test mode until its test
   * keys are regenerated.
   */
  keys: { secret: KeyView | null; public: KeyView | null; testSecret: KeyView | null; testPublic: KeyView | null };
}

export interface IssuedKeys {
  secretKey: string;
  publicKey: string;
}

/** The test keys, shown only when issued (with the project, or by regenerate-test-keys). */
export interface IssuedTestKeys {
  testSecretKey: string;
  testPublicKey: string;
}

export interface MemberView {
  userId: string;
  email: string;
  name: string | null;
  role: ProjectRole;
  joinedAt: string;
}
