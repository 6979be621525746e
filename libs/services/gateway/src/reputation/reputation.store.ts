import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MeteredEmail } from '../shared/metered-email.entity.js';
import type { WindowCounts } from './reputation-rules.js';
import { SendingSuspension } from './sending-suspension.entity.js';

/**
 * A project's sending suspensions (`sending_suspensions`: at most one active) and the counts its
 * reputation is judged on, read from the metered emails sent since the last lifted suspension.
 */
@Injectable()
export class ReputationStore {
  /** Records the suspension unless one is active already (the unique index decides); true when recorded. */
  async suspend(m: EntityManager, s: Omit<SendingSuspension, 'liftedAt' | 'liftedBy'>): Promise<boolean> {
    const inserted: unknown[] = await m.query(
      `INSERT INTO ${tableName(m, SendingSuspension)} (id, project_id, reason, bounce_rate, complaint_rate, sends, suspended_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [s.id, s.projectId, s.reason, s.bounceRate, s.complaintRate, s.sends, s.suspendedAt],
    );
    return inserted.length > 0;
  }

  /** The project's active suspension, if any; with `lock`, locked until the transaction ends. */
  active(m: EntityManager, projectId: string, lock = false): Promise<SendingSuspension | null> {
    const q = m
      .getRepository(SendingSuspension)
      .createQueryBuilder('s')
      .where('s.project_id = :projectId AND s.lifted_at IS NULL', { projectId });
    return (lock ? q.setLock('pessimistic_write') : q).getOne();
  }

  /** The project's latest suspensions, newest first. */
  recent(m: EntityManager, projectId: string, take: number): Promise<SendingSuspension[]> {
    return m.find(SendingSuspension, { where: { projectId }, order: { suspendedAt: 'DESC' }, take });
  }

  async lift(m: EntityManager, id: string, at: Date, by: string): Promise<void> {
    await m.update(SendingSuspension, { id }, { liftedAt: at, liftedBy: by });
  }

  /**
   * Sends, bounces and complaints over two windows: since `since` and over the last `lastSends`
   * sends; both start no earlier than the last lifted suspension.
   */
  async windows(
    m: EntityManager,
    projectId: string,
    since: Date,
    lastSends: number,
  ): Promise<{ since: WindowCounts; last: WindowCounts }> {
    const [row] = (await m.query(
      `WITH lifted AS (SELECT COALESCE(max(lifted_at), 'epoch'::timestamptz) AS at FROM ${tableName(m, SendingSuspension)} WHERE project_id = $1),
            last AS (SELECT bounced_at, complained_at FROM ${tableName(m, MeteredEmail)}, lifted
                      WHERE project_id = $1 AND sent_at >= lifted.at ORDER BY sent_at DESC LIMIT ${lastSends}),
            week AS (SELECT bounced_at, complained_at FROM ${tableName(m, MeteredEmail)}, lifted
                      WHERE project_id = $1 AND sent_at >= GREATEST($2::timestamptz, lifted.at))
       SELECT (SELECT count(*) FROM week)::int AS w_sends, (SELECT count(bounced_at) FROM week)::int AS w_bounces,
              (SELECT count(complained_at) FROM week)::int AS w_complaints,
              (SELECT count(*) FROM last)::int AS l_sends, (SELECT count(bounced_at) FROM last)::int AS l_bounces,
              (SELECT count(complained_at) FROM last)::int AS l_complaints`,
      [projectId, since],
    )) as {
      w_sends: number;
      w_bounces: number;
      w_complaints: number;
      l_sends: number;
      l_bounces: number;
      l_complaints: number;
    }[];
    return {
      since: { sends: row!.w_sends, bounces: row!.w_bounces, complaints: row!.w_complaints },
      last: { sends: row!.l_sends, bounces: row!.l_bounces, complaints: row!.l_complaints },
    };
  }

  /** The counts since `since` (and the last lifted suspension) per sender domain: most sends first, at most 20. */
  byDomain(m: EntityManager, projectId: string, since: Date): Promise<(WindowCounts & { domain: string })[]> {
    return m.query(
      `WITH lifted AS (SELECT COALESCE(max(lifted_at), 'epoch'::timestamptz) AS at FROM ${tableName(m, SendingSuspension)} WHERE project_id = $1)
       SELECT sender_domain AS domain, count(*)::int AS sends, count(bounced_at)::int AS bounces, count(complained_at)::int AS complaints
         FROM ${tableName(m, MeteredEmail)}, lifted
        WHERE project_id = $1 AND sent_at >= GREATEST($2::timestamptz, lifted.at) AND sender_domain IS NOT NULL
        GROUP BY sender_domain ORDER BY count(*) DESC, sender_domain LIMIT 20`,
      [projectId, since],
    );
  }
}
