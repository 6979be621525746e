import { createLogger, newId } from '@herald/core';
import { InjectJobQueue, Job, type JobContext, type JobQueue } from '@herald/jobs';
import { tableName } from '@herald/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { ContactsClient, type ExportedContact } from '../members/contacts-client.js';
import { SegmentCompute } from '../membership/segment-compute.js';
import { Segment } from '../segments/segment.entity.js';
import { SegmentContact, SegmentContactEvent, SegmentDeletedContact } from './read-model.entities.js';
import { ReadModelWriter } from './read-model.writer.js';

export const BACKFILL_QUEUE = 'segments.backfill';
/** Contacts per page of contacts' export, and per transaction of the backfill. */
export const BACKFILL_PAGE = 500;
const log = createLogger('segments.backfill');

export interface BackfillStatus {
  jobId: string;
  state: 'queued' | 'running' | 'completed' | 'failed';
  error?: string;
}

/**
 * Rebuilds a project's read model from contacts (docs/segments.md, "Backfill"), for projects whose
 * data predates the segments service, or to repair it. A durable job (`segments.backfill`) pages
 * `POST /internal/contacts/export` in contact id order, BACKFILL_PAGE contacts at a time, each page
 * one transaction:
 * - each contact upserted with its own `createdAt` / `updatedAt`; the newest state wins, so a contact
 *   event applied live meanwhile is kept; a deleted contact's tombstone is respected;
 * - its custom events replace those without a contacts record id (rows from before record ids), and
 *   are added once per record id (an event the live path applied stays one row);
 * - the field types registered as the live path does.
 * Then each dynamic segment of the project is computed silently (a baseline: no events).
 * Engagement (`email.*`) is not in contacts: it is not rebuilt. A job run again (a retry, a restart)
 * ends in the same state.
 */
@Injectable()
export class ReadModelBackfill implements OnModuleInit {
  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    @InjectJobQueue(SEGMENTS) private readonly jobs: JobQueue,
    private readonly contacts: ContactsClient,
    private readonly writer: ReadModelWriter,
    private readonly membership: SegmentCompute,
  ) {}

  onModuleInit(): void {
    this.jobs.register(BACKFILL_QUEUE, (ctx) => this.runJob(ctx));
  }

  /** Queues a backfill of the project; answers the job id to poll with {@link status}. */
  start(projectId: string): Promise<string> {
    return this.db.transaction((m) =>
      this.jobs.enqueue(m, BACKFILL_QUEUE, { projectId }, { id: newId('segbf'), maxAttempts: 5 }),
    );
  }

  async status(projectId: string, jobId: string): Promise<BackfillStatus | undefined> {
    const [row] = await this.db.query<{ state: BackfillStatus['state']; last_error: string | null }[]>(
      `SELECT state, last_error FROM ${tableName(this.db, Job)}
        WHERE id = $1 AND queue = $2 AND payload->>'projectId' = $3`,
      [jobId, BACKFILL_QUEUE, projectId],
    );
    if (!row) return undefined;
    return { jobId, state: row.state, ...(row.state === 'failed' && row.last_error ? { error: row.last_error } : {}) };
  }

  private async runJob({ job }: Pick<JobContext, 'job'>): Promise<void> {
    const { projectId } = job.payload as { projectId: string };
    const result = await this.backfill(projectId);
    log.info('backfilled the read model', { projectId, ...result });
  }

  /** The whole backfill of one project; answers how many contacts and events were read. */
  async backfill(projectId: string): Promise<{ contacts: number; events: number; segments: number }> {
    let after: string | null = null;
    let contacts = 0;
    let events = 0;
    for (;;) {
      const page = await this.contacts.exportPage(projectId, after, BACKFILL_PAGE);
      if (page.contacts.length > 0) await this.db.transaction((m) => this.apply(m, projectId, page.contacts));
      contacts += page.contacts.length;
      events += page.contacts.reduce((n, c) => n + c.events.length, 0);
      if (!page.next) break;
      after = page.next;
    }
    const dynamic = await this.db.getRepository(Segment).find({
      where: { projectId, type: 'DYNAMIC' },
      select: { id: true },
      order: { id: 'ASC' },
    });
    for (const { id } of dynamic) await this.membership.compute(projectId, id, { fire: false, reason: 'compute' });
    return { contacts, events, segments: dynamic.length };
  }

  private async apply(m: EntityManager, projectId: string, page: ExportedContact[]): Promise<void> {
    const contacts = tableName(m, SegmentContact);
    const eventsTable = tableName(m, SegmentContactEvent);
    await m.query(
      `INSERT INTO ${contacts} AS t (project_id, contact_id, email, subscribed, data, created_at, updated_at)
       SELECT $1::varchar, x.id, x.email, x.subscribed, x.data, x."createdAt", x."updatedAt"
         FROM jsonb_to_recordset($2::jsonb) AS x(id varchar, email varchar, subscribed boolean, data jsonb,
                                                  "createdAt" timestamptz, "updatedAt" timestamptz)
        WHERE NOT EXISTS (SELECT 1 FROM ${tableName(m, SegmentDeletedContact)} d WHERE d.project_id = $1::varchar AND d.contact_id = x.id)
       ON CONFLICT (project_id, contact_id) DO UPDATE SET
         email = EXCLUDED.email, subscribed = EXCLUDED.subscribed, data = EXCLUDED.data,
         created_at = LEAST(t.created_at, EXCLUDED.created_at), updated_at = EXCLUDED.updated_at
       WHERE t.updated_at < EXCLUDED.updated_at`,
      [projectId, JSON.stringify(page.map(({ events: _events, ...c }) => c))],
    );
    const ids = page.map((c) => c.id);
    await m.query(
      `DELETE FROM ${eventsTable} WHERE project_id = $1 AND contact_id = ANY($2::varchar[]) AND event_record_id IS NULL`,
      [projectId, ids],
    );
    const rows = page.flatMap((c) => c.events.map((e) => ({ contactId: c.id, id: e.id, name: e.name, at: e.at })));
    if (rows.length > 0)
      await m.query(
        `INSERT INTO ${eventsTable} (project_id, contact_id, name, occurred_at, event_record_id)
         SELECT $1::varchar, x."contactId", x.name, x.at, x.id
           FROM jsonb_to_recordset($2::jsonb) AS x("contactId" varchar, id varchar, name varchar, at timestamptz)
          WHERE EXISTS (SELECT 1 FROM ${contacts} c WHERE c.project_id = $1::varchar AND c.contact_id = x."contactId")
         ON CONFLICT (project_id, event_record_id) WHERE event_record_id IS NOT NULL DO NOTHING`,
        [projectId, JSON.stringify(rows)],
      );
    for (const c of page) await this.writer.registerFieldTypes(m, projectId, c.data);
  }
}
