import { IsIn, IsInt, IsISO8601, IsNumber, IsOptional, IsString, Min } from 'class-validator';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/** The sending categories a billing cap applies to (docs/billing.md). */
export const BILLING_CATEGORIES = ['transactional', 'campaign', 'workflow'] as const;
export type BillingCategory = (typeof BILLING_CATEGORIES)[number];

/**
 * Payload of `billing.limit.reached`: a project's consumption of `category` reached its cap in the
 * current billing period. From now until `periodEnd` new sends in the category are refused with
 * 429 BILLING_LIMIT_EXCEEDED; a campaign that is sending stops at its next batch (refused): its
 * remaining recipients end `skipped: billing_limit` and it ends with `stoppedReason: billing_limit`.
 * Published once per project, category and period (by the gateway).
 */
export class BillingLimitReachedV1 {
  @IsIn(BILLING_CATEGORIES) category!: BillingCategory;
  @IsInt() @Min(0) cap!: number;
  @IsInt() @Min(0) used!: number;
  @IsISO8601() periodStart!: string;
  /** When the period resets and sends in the category are accepted again. */
  @IsISO8601() periodEnd!: string;
}

export const BillingLimitReached = defineEvent({
  topic: Topics.BillingLimitReached,
  version: 1,
  payload: BillingLimitReachedV1,
  key: (_p, projectId) => projectId,
});

/**
 * Payload of `project.sending.suspended` (the project's bounce or complaint rate passed its
 * threshold: every new send is refused with 403 PROJECT_SENDING_SUSPENDED; a sending campaign stops
 * at its next batch, its remaining recipients `skipped: sending_suspended`) and
 * `project.sending.resumed` (an OWNER lifted the suspension).
 */
export class ProjectSendingSuspensionV1 {
  @IsString() suspensionId!: string;
  /** `bounce_rate` or `complaint_rate` (suspended); `lifted` (resumed). */
  @IsString() reason!: string;
  @IsOptional() @IsNumber() bounceRate?: number;
  @IsOptional() @IsNumber() complaintRate?: number;
  @IsISO8601() at!: string;
  /** project.sending.resumed: the OWNER who lifted it. */
  @IsOptional() @IsString() liftedBy?: string;
}

export const ProjectSendingSuspended = defineEvent({
  topic: Topics.ProjectSendingSuspended,
  version: 1,
  payload: ProjectSendingSuspensionV1,
  key: (_p, projectId) => projectId,
});

export const ProjectSendingResumed = defineEvent({
  topic: Topics.ProjectSendingResumed,
  version: 1,
  payload: ProjectSendingSuspensionV1,
  key: (_p, projectId) => projectId,
});
