import {
  WORKFLOW_EXECUTION_STATUSES,
  WORKFLOW_STEP_TYPES,
  type WorkflowExecutionStatus,
  type WorkflowStepType,
} from '@herald/contracts';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

export class CreateWorkflowDto {
  @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsOptional() @IsString() @MaxLength(1000) description?: string;
  /** Shorthand for `triggerConfig: {eventName}`. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) eventName?: string;
  @IsOptional() @IsObject() triggerConfig?: Record<string, unknown>;
  @IsOptional() @IsBoolean() allowReentry?: boolean;
  /** Ignored: a workflow is created disabled (the spec). */
  @IsOptional() enabled?: unknown;
  /** Ignored: EVENT is the only trigger type. */
  @IsOptional() triggerType?: unknown;
}

export class UpdateWorkflowDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @IsOptional() @IsString() @MaxLength(1000) description?: string;
  @IsOptional() @IsIn(['EVENT']) triggerType?: 'EVENT';
  @IsOptional() @IsObject() triggerConfig?: Record<string, unknown>;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) eventName?: string;
  @IsOptional() @IsBoolean() enabled?: boolean;
  @IsOptional() @IsBoolean() allowReentry?: boolean;
}

export class CreateStepDto {
  @IsIn(WORKFLOW_STEP_TYPES) type!: WorkflowStepType;
  @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsOptional() @IsInt() @Min(0) @Max(100_000) position?: number;
  @IsObject() config!: Record<string, unknown>;
}

export class UpdateStepDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @IsOptional() @IsInt() @Min(0) @Max(100_000) position?: number;
  @IsOptional() @IsObject() config?: Record<string, unknown>;
}

export class CreateTransitionDto {
  @IsString() @MaxLength(40) fromStepId!: string;
  @IsString() @MaxLength(40) toStepId!: string;
  @IsOptional() @IsIn(['yes', 'no', 'event', 'timeout']) branch?: 'yes' | 'no' | 'event' | 'timeout';
}

export class DeleteStepQueryDto {
  @IsOptional() @Transform(({ value }) => value === 'true' || value === true) @IsBoolean() splice?: boolean;
}

export class StartExecutionDto {
  @IsString() @MinLength(1) @MaxLength(64) contactId!: string;
  @IsOptional() @IsObject() context?: Record<string, unknown>;
}

export class ListExecutionsQueryDto {
  @IsOptional() @IsIn(WORKFLOW_EXECUTION_STATUSES) status?: WorkflowExecutionStatus;
  @IsOptional() @Transform(({ value }) => Number(value)) @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() @MaxLength(100) cursor?: string;
}

export class SimulateDto {
  @IsOptional() @IsString() @MaxLength(64) contactId?: string;
  @IsOptional() @IsObject() contact?: { email?: string; data?: Record<string, unknown>; subscribed?: boolean };
  @IsOptional() @IsObject() event?: { name?: string; data?: Record<string, unknown> };
  @IsOptional() @IsString() at?: string;
  @IsOptional() @IsObject() context?: Record<string, unknown>;
}
