import { Job, type JobState } from '@herald/jobs';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The backfill's jobs as the service's job queue keeps them (`jobs`, @herald/jobs). */
@Injectable()
export class BackfillJobsStore {
  /** The state of job `jobId` of `queue` started for `projectId` (undefined: none, or another project's). */
  async state(
    m: EntityManager,
    queue: string,
    projectId: string,
    jobId: string,
  ): Promise<{ state: JobState; last_error: string | null } | undefined> {
    const [row] = await m.query<{ state: JobState; last_error: string | null }[]>(
      `SELECT state, last_error FROM ${tableName(m, Job)}
        WHERE id = $1 AND queue = $2 AND payload->>'projectId' = $3`,
      [jobId, queue, projectId],
    );
    return row;
  }
}
