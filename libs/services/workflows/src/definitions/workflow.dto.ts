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
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';

/** A step's canvas coordinates, as a graph editor (Plunk's) sends them. */
export interface StepCoordinates {
  x: number;
  y: number;
}
export const MAX_STEP_POSITION = 100_000;

export const isCoordinates = (v: unknown): v is StepCoordinates =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.keys(v).length === 2 &&
  Number.isFinite((v as StepCoordinates).x) &&
  Number.isFinite((v as StepCoordinates).y);

/** `position`: the step's order (an integer 0..100000), or its canvas coordinates `{x, y}` (finite numbers). */
const IsStepPosition = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isStepPosition',
      validator: {
        validate: (v: unknown) =>
          (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_STEP_POSITION) || isCoordinates(v),
        defaultMessage: () =>
          `position must be an integer from 0 to ${MAX_STEP_POSITION}, or {x, y} with finite numbers (canvas coordinates)`,
      },
    },
    options,
  );

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
  /** The order (an integer), or canvas coordinates `{x, y}` (the step then takes the next order). */
  @IsOptional() @IsStepPosition() position?: number | StepCoordinates;
  @IsObject() config!: Record<string, unknown>;
  /** Plunk's SEND_EMAIL template beside the config: moved into `config.templateId`. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(60) templateId?: string | null;
}

export class UpdateStepDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @IsOptional() @IsStepPosition() position?: number | StepCoordinates;
  @IsOptional() @IsObject() config?: Record<string, unknown>;
  /** Plunk's SEND_EMAIL template beside the config (`null`: none given). */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(60) templateId?: string | null;
}

export class CreateTransitionDto {
  @IsString() @MaxLength(40) fromStepId!: string;
  @IsString() @MaxLength(40) toStepId!: string;
  /** yes/no, a multi-branch CONDITION's branch id or default, event/timeout. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64) branch?: string;
  /** Plunk's tag of the branch: `{branch}` or `{fallback: true}` (plunk-shapes.ts). */
  @IsOptional() condition?: unknown;
  /** Plunk's order of a step's transitions: accepted and ignored (a branch has one transition). */
  @IsOptional() @IsInt() @Min(0) priority?: number;
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
