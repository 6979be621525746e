import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Campaign } from './campaign.entity.js';

/** The SQL of a campaign's row beyond loading and saving it; every method runs in the caller's transaction. */
@Injectable()
export class CampaignsStore {
  /**
   * SCHEDULED → SENDING for run `seq` of the campaign, only once `scheduled_at` has passed by the
   * database's clock: whether it moved (not when the run is stale, the campaign not SCHEDULED, or
   * its time not come).
   */
  async fireScheduled(m: EntityManager, id: string, seq: number): Promise<boolean> {
    const [rows] = (await m.query(
      `UPDATE ${tableName(m, Campaign)} SET status = 'SENDING', started_at = now(), version = version + 1, updated_at = now()
        WHERE id = $1 AND send_seq = $2 AND status = 'SCHEDULED' AND scheduled_at <= now() RETURNING id`,
      [id, seq],
    )) as [unknown[], number];
    return rows.length > 0;
  }
}
