import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import { TrackedEvent } from './tracked-event.entity.js';

export interface EventStats {
  total: number;
  events: { name: string; count: number }[];
}

/** Counts of the project's tracked events, per name. */
@Injectable()
export class EventStatsQuery {
  constructor(@InjectDataSource(CONTACTS) private readonly db: DataSource) {}

  async execute(projectId: string): Promise<EventStats> {
    const rows: { name: string; count: string }[] = await this.db.query(
      `SELECT name, count(*) AS count FROM ${tableName(this.db, TrackedEvent)} WHERE project_id = $1 GROUP BY name ORDER BY count(*) DESC, name`,
      [projectId],
    );
    const events = rows.map((r) => ({ name: r.name, count: Number(r.count) }));
    return { total: events.reduce((n, e) => n + e.count, 0), events };
  }
}
