import pg from 'pg';
import { eventually } from '@herald/testing';
import type { ProjectApi, Reply } from './contacts-helpers.js';

/** Shapes of the campaigns API these specs read. */
export interface CampaignBody {
  id: string;
  name: string;
  subject: string;
  type: 'ALL' | 'SEGMENT' | 'FILTERED';
  audienceType: 'ALL' | 'SEGMENT' | 'FILTERED';
  segmentId: string | null;
  status: 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';
  scheduledAt: string | null;
  sentAt: string | null;
  stoppedReason: string | null;
}

export interface StatsBody {
  recipients: number;
  pending: number;
  queued: number;
  sent: number;
  failed: number;
  skipped: number;
  /** Skipped as unsubscribed, plus unsubscribed through the campaign's link. */
  unsubscribed: number;
  skippedUnsubscribed: number;
  unsubscribedByLink: number;
  suppressed: number;
  duplicate: number;
  invalidAddress: number;
  cancelled: number;
  billingLimit: number;
  sendingSuspended: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
  rates: Record<string, number>;
  complete: boolean;
}

export interface RecipientBody {
  contactId: string;
  email: string;
  status: 'pending' | 'queued' | 'sent' | 'failed' | 'skipped';
  reason: string | null;
  error: string | null;
  emailId: string | null;
  unsubscribedAt: string | null;
}

/** POST /campaigns and insist on 201; answers the campaign (`data` of the envelope). */
export async function createCampaign(api: ProjectApi, body: Record<string, unknown>): Promise<CampaignBody> {
  const res: Reply<{ success: boolean; data: CampaignBody }> = await api.post('/campaigns', body);
  if (res.status !== 201) throw new Error(`POST /campaigns answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Waits until the campaign has `status`. */
export function campaignIn(api: ProjectApi, id: string, status: CampaignBody['status'], timeoutMs = 30_000) {
  return eventually(
    async () => {
      const res = await api.get<CampaignBody>(`/campaigns/${id}`);
      return res.body?.status === status ? res.body : undefined;
    },
    { timeoutMs, message: `campaign ${id} never became ${status}` },
  );
}

export async function statsOf(api: ProjectApi, id: string): Promise<StatsBody> {
  const res = await api.get<StatsBody>(`/campaigns/${id}/stats`);
  if (res.status !== 200) throw new Error(`GET /campaigns/${id}/stats answered ${res.status}`);
  return res.body;
}

/** Every ledger row, walking the cursor pages. */
export async function recipientsOf(api: ProjectApi, id: string, query = ''): Promise<RecipientBody[]> {
  const all: RecipientBody[] = [];
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams(query);
    qs.set('limit', '100');
    if (cursor) qs.set('cursor', cursor);
    const res: Reply<{ data: RecipientBody[]; cursor: string | null }> = await api.get(
      `/campaigns/${id}/recipients?${qs}`,
    );
    if (res.status !== 200) throw new Error(`GET recipients answered ${res.status}: ${JSON.stringify(res.body)}`);
    all.push(...res.body.data);
    cursor = res.body.cursor;
  } while (cursor);
  return all;
}

/** The ledger's invariant, as the stats show it. */
export const addsUp = (s: StatsBody): boolean =>
  s.recipients === s.sent + s.skipped + s.failed && s.pending === 0 && s.queued === 0;

/** Reads an owner's `resource_references` (segments, sending): whether an active campaign's reference has arrived. */
export class OwnerReferences {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  }

  /** Waits until some campaign's reference to `key` is active (`true`), or none is (`false`). */
  untilActive(schema: 'segments' | 'sending', kind: string, key: string, active: boolean) {
    return eventually(
      async () => {
        const { rowCount } = await this.pool.query(
          `SELECT 1 FROM ${schema}.resource_references WHERE refs @> $1::jsonb`,
          [JSON.stringify([{ kind, key, active: true }])],
        );
        return (rowCount ?? 0) > 0 === active ? true : undefined;
      },
      { timeoutMs: 30_000, message: `${schema}: the active reference to ${kind} ${key} never became ${active}` },
    );
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
