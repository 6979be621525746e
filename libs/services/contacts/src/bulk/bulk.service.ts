import { newId } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, MaxLength } from 'class-validator';
import type { DataSource } from 'typeorm';
import { ContactWriter } from '../contacts/contact-writer.js';
import { CONTACTS } from '../consumer.js';
import type { BulkAction, BulkStatus } from './bulk-job.entity.js';
import { BulkErrors } from './bulk.errors.js';
import { BulkStore } from './bulk.store.js';

export class BulkContactsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000, { message: 'contactIds may list at most 1000 contacts per call' })
  @IsString({ each: true })
  @MaxLength(40, { each: true })
  contactIds!: string[];
}

export interface BulkJobView {
  jobId: string;
  action: BulkAction;
  status: BulkStatus;
  total: number;
  succeeded: number;
  unchanged: number;
  failed: number;
  errors: { contactId: string; reason: string }[];
  createdAt: string;
  completedAt: string | null;
}

export const BULK_QUEUE = 'contacts.bulk';

/** Bulk subscribe, unsubscribe and delete: queued, then applied contact by contact through the write path; the jobs' SQL is the BulkStore's. */
@Injectable()
export class BulkService implements OnModuleInit {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectJobQueue(CONTACTS) private readonly jobs: JobQueue,
    private readonly writer: ContactWriter,
    private readonly store: BulkStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register(BULK_QUEUE, (ctx) => this.run(ctx));
  }

  async start(
    projectId: string,
    action: BulkAction,
    contactIds: string[],
  ): Promise<{ jobId: string; status: 'queued' }> {
    const id = newId('blk');
    await this.db.transaction(async (m) => {
      await this.store.create(m, id, projectId, action, contactIds);
      await this.jobs.enqueue(m, BULK_QUEUE, { bulkId: id }, { id, maxAttempts: 3 });
    });
    return { jobId: id, status: 'queued' };
  }

  async get(projectId: string, jobId: string): Promise<BulkJobView> {
    const job = await this.store.find(this.db, projectId, jobId);
    if (!job) throw BulkErrors.jobNotFound(jobId);
    return {
      jobId: job.id,
      action: job.action,
      status: job.status,
      total: job.contactIds.length,
      succeeded: job.succeeded,
      unchanged: job.unchanged,
      failed: job.failed,
      errors: job.errors,
      createdAt: job.createdAt.toISOString(),
      completedAt: job.completedAt?.toISOString() ?? null,
    };
  }

  /** One transaction: the whole bulk applies or (on a retry) applies again from the start. */
  private async run({ job }: JobContext): Promise<void> {
    const bulk = await this.store.get(this.db, (job.payload as { bulkId: string }).bulkId);
    if (!bulk || bulk.status !== 'queued') return;
    await this.db.transaction(async (m) => {
      const ctx = { projectId: bulk.projectId, subscribedIfNew: true, reason: 'bulk' as const };
      let succeeded = 0;
      let unchanged = 0;
      const errors: { contactId: string; reason: string }[] = [];
      for (const contactId of bulk.contactIds) {
        // a contact deleted since the job was queued is an expected outcome, reported per contact (not an exception)
        if (bulk.action === 'delete') {
          // the contact and its timeline
          if (await this.writer.delete(m, ctx, contactId)) succeeded++;
          else errors.push({ contactId, reason: 'not_found' });
        } else {
          const write = await this.writer.updateIfExists(m, ctx, contactId, {
            subscribed: bulk.action === 'subscribe',
          });
          if (!write) errors.push({ contactId, reason: 'not_found' });
          else if (write.changedKeys.length > 0) succeeded++;
          else unchanged++;
        }
      }
      await this.store.complete(m, bulk.id, { succeeded, unchanged, errors });
    });
  }
}
