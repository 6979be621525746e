import { ServiceConfig, toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** The workflows service's settings, in both modes (docs/workflows.md, "Configuration"). */
export class WorkflowsSettings {
  /** How often the runtime looks for due step runs when nothing woke it (ms). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(20)
  @Max(1000)
  WORKFLOWS_POLL_MS: number = 200;

  /** Step runs claimed per batch (one transaction). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(500)
  WORKFLOWS_BATCH: number = 100;

  /** Batches run at once by this process. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  WORKFLOWS_CONCURRENCY: number = 2;

  /**
   * Threads that render the Liquid of WEBHOOK and SEND_EMAIL steps and of the dry run off the event
   * loop (0: on it). A hostile template holds a render thread for its time budget, never the loop
   * that answers requests and runs steps (docs/templating.md, "Where templates render").
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(16)
  RENDER_THREADS: number = 1;

  /** Targets a WEBHOOK step may reach although they are not public (CIDRs, addresses, host names; comma-separated). */
  @IsOptional()
  @IsString()
  WORKFLOW_WEBHOOK_ALLOW?: string;

  /** The key webhook requests are signed with (HMAC-SHA256); derived from the internal secret when unset. */
  @IsOptional()
  @IsString()
  WORKFLOW_WEBHOOK_SECRET?: string;

  /**
   * The first backoff of a failing WEBHOOK step (ms): the n-th retry waits base × 4^(n − 1), at most
   * 10 minutes, jittered between half and all of it. Lowered by tests that watch the retries run out.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(600_000)
  WORKFLOW_WEBHOOK_RETRY_BASE_MS: number = 1000;

  @IsOptional()
  @Matches(HTTP_URL, { message: 'CONTACTS_URL must be an http(s) URL' })
  CONTACTS_URL?: string;

  @IsOptional()
  @Matches(HTTP_URL, { message: 'SENDING_URL must be an http(s) URL' })
  SENDING_URL?: string;

  /** Where CONDITION steps' `segment.<id>` references are checked when a step is saved. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'SEGMENTS_URL must be an http(s) URL' })
  SEGMENTS_URL?: string;
}

/** What the workflows process needs in distributed mode, validated at boot. */
export class WorkflowsServiceConfig extends ServiceConfig {
  @Matches(HTTP_URL, { message: 'CONTACTS_URL must be an http(s) URL' }) CONTACTS_URL!: string;
  @Matches(HTTP_URL, { message: 'SENDING_URL must be an http(s) URL' }) SENDING_URL!: string;
  @Matches(HTTP_URL, { message: 'SEGMENTS_URL must be an http(s) URL' }) SEGMENTS_URL!: string;
}

export const WORKFLOWS_SETTINGS = Symbol('WORKFLOWS_SETTINGS');
