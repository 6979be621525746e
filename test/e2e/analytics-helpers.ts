import type { EventEnvelope } from '@herald/contracts';
import pg from 'pg';

/**
 * Publishes events as if analytics had written them to its own outbox (its relay sends them to the
 * bus: the in-process one in standalone mode, Kafka otherwise), for the producers that do not exist
 * in the test's deployment (campaigns, workflows) or facts at chosen times (time series).
 */
export class AnalyticsOutbox {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }

  async publish(...envelopes: EventEnvelope[]): Promise<void> {
    await this.pool.query(
      `WITH ins AS (
         INSERT INTO analytics.outbox (event_id, topic, message_key, envelope)
         SELECT (e->>'eventId')::uuid, e->>'type', e->>'key', e FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY n
         RETURNING 1)
       SELECT pg_notify('herald_outbox_analytics', count(*)::text) FROM ins`,
      [JSON.stringify(envelopes)],
    );
  }

  /** Every count analytics keeps for a project, as one comparable value. */
  async counts(projectId: string): Promise<unknown> {
    const q = async (sql: string) => (await this.pool.query(sql, [projectId])).rows;
    return {
      items: await q(
        `SELECT type, count(*)::int AS n FROM analytics.activity_items WHERE project_id = $1 GROUP BY 1 ORDER BY 1`,
      ),
      hourly: await q(
        `SELECT hour, type, count::int FROM analytics.activity_hourly WHERE project_id = $1 ORDER BY 1, 2`,
      ),
      types: await q(`SELECT type, count::int FROM analytics.activity_types WHERE project_id = $1 ORDER BY 1`),
      campaigns: await q(`SELECT * FROM analytics.campaign_stats WHERE project_id = $1 ORDER BY campaign_id`),
      topEvents: await q(`SELECT name, count::int FROM analytics.event_counts WHERE project_id = $1 ORDER BY 1`),
    };
  }

  /** How many events the analytics consumer has applied (its inbox). */
  async applied(): Promise<number> {
    return (await this.pool.query(`SELECT count(*)::int AS n FROM analytics.inbox`)).rows[0].n;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
