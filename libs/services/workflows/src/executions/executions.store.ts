import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WorkflowExecution, WorkflowStepRun } from './execution.entity.js';

/** A contact's event by name, as a WAIT_FOR_EVENT waits for it. */
export interface AwaitedEvent {
  projectId: string;
  contactId: string;
  name: string;
}

/**
 * Executions as contacts' events reach them: the runs waiting for an event, their resumption, and
 * a contact's active executions. Every method runs in the caller's transaction.
 */
@Injectable()
export class ExecutionsStore {
  /** Which of `events` a pending WAIT_FOR_EVENT run waits for, in one look (each answered once). */
  async awaited(m: EntityManager, events: AwaitedEvent[]): Promise<AwaitedEvent[]> {
    if (events.length === 0) return [];
    const rows = await m.query<{ p: string; c: string; n: string }[]>(
      `SELECT DISTINCT r.project_id AS p, r.contact_id AS c, r.wait_event AS n
       FROM ${tableName(m, WorkflowStepRun)} r JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(p, c, n)
         ON r.project_id = x.p AND r.contact_id = x.c AND r.wait_event = x.n
       WHERE r.status = 'PENDING' AND r.wait_event IS NOT NULL`,
      [events.map((e) => e.projectId), events.map((e) => e.contactId), events.map((e) => e.name)],
    );
    return rows.map((r) => ({ projectId: r.p, contactId: r.c, name: r.n }));
  }

  /**
   * Resumes the contact's runs waiting for `event` and not resumed yet: due now, with the event's
   * data. A run locked by a runner right now is passed by. Returns how many were resumed.
   */
  async resume(m: EntityManager, event: AwaitedEvent, data: Record<string, unknown>): Promise<number> {
    const runs = tableName(m, WorkflowStepRun);
    // an UPDATE answers [rows, affected] through TypeORM's PostgreSQL driver
    const [, resumed] = await m.query<[unknown[], number]>(
      `UPDATE ${runs} SET due_at = now(), resumed_with = $4
       WHERE id IN (SELECT id FROM ${runs}
                    WHERE project_id = $1 AND contact_id = $2 AND wait_event = $3 AND status = 'PENDING' AND resumed_with IS NULL
                    FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [event.projectId, event.contactId, event.name, JSON.stringify(data)],
    );
    return resumed;
  }

  /** The contact's RUNNING and WAITING executions, locked (in id order). */
  lockActiveOfContact(m: EntityManager, projectId: string, contactId: string): Promise<WorkflowExecution[]> {
    return m
      .getRepository(WorkflowExecution)
      .createQueryBuilder('e')
      .setLock('pessimistic_write')
      .where(`e.project_id = :p AND e.contact_id = :c AND e.status IN ('RUNNING', 'WAITING')`, {
        p: projectId,
        c: contactId,
      })
      .orderBy('e.id')
      .getMany();
  }
}
