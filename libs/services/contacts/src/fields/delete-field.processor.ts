import { ContactUpdated } from '@herald/contracts';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { CONTACTS } from '../consumer.js';
import { ContactFieldDeletion } from './contact-field-deletion.entity.js';
import { DELETE_FIELD_QUEUE, type DeleteFieldJob } from './fields.service.js';
import { jsonPath, liveDataSql } from './live-data.js';

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
  ) {}

  onModuleInit(): void {
    this.jobs.register(DELETE_FIELD_QUEUE, (ctx) => this.run(ctx));
  }

  private async run({ job, signal }: JobContext): Promise<void> {
    const { projectId, field, seq } = job.payload as DeleteFieldJob;
    const path = jsonPath(field);
    for (;;) {
      signal.throwIfAborted();
      const done = await this.db.transaction(async (m) => {
        const table = tableName(m, Contact);
        const [rows] = (await m.query(
          `UPDATE ${table} SET data = data #- $2::text[], updated_at = now()
            WHERE id IN (SELECT id FROM ${table} WHERE project_id = $1 AND data #> $2::text[] IS NOT NULL
                           AND ($3::bigint IS NULL OR deletions_applied < $3::bigint) LIMIT ${BATCH} FOR UPDATE)
            RETURNING id, email, subscribed, ${liveDataSql()} AS data`,
          [projectId, path, seq ?? null],
        )) as [{ id: string; email: string; subscribed: boolean; data: Record<string, unknown> }[], number];
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
        if (seq !== undefined)
          await m.query(`DELETE FROM ${tableName(m, ContactFieldDeletion)} WHERE project_id = $1 AND seq = $2`, [
            projectId,
            seq,
          ]);
        return true;
      });
      if (done) return;
    }
  }
}
