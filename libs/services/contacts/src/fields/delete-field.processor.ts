import { ContactUpdated } from '@herald/contracts';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import { DELETE_FIELD_QUEUE, type DeleteFieldJob } from './fields.service.js';
import { FieldsStore } from './fields.store.js';

const BATCH = 1000;

/**
 * Removes a deleted field from every contact of the project, a batch per transaction (resumable),
 * then drops its tombstone. Only rows below the tombstone are touched: a row written since the
 * delete had the stale value removed by that write, and a value it holds now was written after the
 * delete (a new field) and stays. Reads leave the stale values out meanwhile (`live_data`).
 */
@Injectable()
export class DeleteFieldProcessor implements OnModuleInit {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectJobQueue(CONTACTS) private readonly jobs: JobQueue,
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
    private readonly store: FieldsStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register(DELETE_FIELD_QUEUE, (ctx) => this.run(ctx));
  }

  private async run({ job, signal }: JobContext): Promise<void> {
    const { projectId, field, seq } = job.payload as DeleteFieldJob;
    for (;;) {
      signal.throwIfAborted();
      const done = await this.db.transaction(async (m) => {
        const rows = await this.store.clearBatch(m, projectId, field, seq, BATCH);
        await this.outbox.add(
          m,
          ...rows.map((r) =>
            ContactUpdated.create({
              projectId,
              source: CONTACTS,
              payload: {
                contactId: r.id,
                email: r.email,
                subscribed: r.subscribed,
                data: r.data,
                changedKeys: [field],
              },
            }),
          ),
        );
        if (rows.length === BATCH) return false;
        if (seq !== undefined) await this.store.dropTombstone(m, projectId, seq);
        return true;
      });
      if (done) return;
    }
  }
}
