import { BILLING_CATEGORIES, type BillingCategory } from '@herald/contracts';

/** What consumption counts: emails per sending category, tracked events, and stored contacts (a gauge). */
export const METERED = [...BILLING_CATEGORIES, 'events', 'contacts'] as const;
export type Metered = (typeof METERED)[number];

/** A project's caps per sending category; null (or absent) is no cap. */
export type BillingCaps = Record<BillingCategory, number | null>;
export const NO_CAPS: BillingCaps = { transactional: null, campaign: null, workflow: null };

/** The largest cap accepted (a Postgres integer). */
export const MAX_CAP = 2_000_000_000;

export interface Period {
  start: Date;
  end: Date;
}

/** Stored contacts are a gauge, not a per-period count: their usage row lives in this fixed "period". */
export const GAUGE_PERIOD_START = new Date(0);

/**
 * The billing period holding `at`: the payment provider's current period when it is known and holds
 * `at`, otherwise the calendar month (UTC) of `at`.
 */
export function billingPeriod(at: Date, provider?: { start: Date | null; end: Date | null } | null): Period {
  if (provider?.start && provider.end && provider.start <= at && at < provider.end)
    return { start: provider.start, end: provider.end };
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The sending category of an email, from the `origin` of its `email.*` event (`api` is /v1/send: transactional). */
export function categoryOfOrigin(origin: string | undefined): BillingCategory {
  if (origin === 'campaign' || origin === 'workflow') return origin;
  return 'transactional';
}

/** The notice levels (percent of the cap) the owners are emailed at. */
export const NOTICE_LEVELS = [80, 100] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

/** The notice levels crossed when usage went from `before` to `after` under `cap` (none without a cap). */
export function crossedLevels(before: number, after: number, cap: number | null): NoticeLevel[] {
  if (cap === null || after <= before) return [];
  return NOTICE_LEVELS.filter((level) => {
    const mark = Math.ceil((cap * level) / 100);
    return before < mark && after >= mark;
  });
}

export type Admission =
  { allowed: true } | { allowed: false; category: BillingCategory; cap: number; used: number; resetsAt: Date };

/**
 * Whether `count` more emails of `category` fit: refused once the period's usage plus them would
 * pass the cap (a cap of 0 refuses every send). BillingService.admission applies the same rule in
 * one statement, to the larger of the emails sent and the emails admitted (reserved).
 */
export function admit(
  category: BillingCategory,
  count: number,
  used: number,
  cap: number | null,
  period: Period,
): Admission {
  if (cap === null || used + count <= cap) return { allowed: true };
  return { allowed: false, category, cap, used, resetsAt: period.end };
}

/** Validates a PUT billing-limits body: field-level problems, or the caps to store (missing categories keep theirs). */
export function parseCaps(
  body: unknown,
): { caps: Partial<BillingCaps> } | { problems: { field: string; message: string; code: string }[] } {
  const problems: { field: string; message: string; code: string }[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { problems: [{ field: 'body', message: 'Send a JSON object of caps per category', code: 'invalid_type' }] };
  const source = body as Record<string, unknown>;
  const caps: Partial<BillingCaps> = {};
  for (const key of Object.keys(source)) {
    if (!(BILLING_CATEGORIES as readonly string[]).includes(key)) {
      problems.push({
        field: key,
        message: `Unknown category; caps apply to ${BILLING_CATEGORIES.join(', ')}`,
        code: 'unrecognized_keys',
      });
      continue;
    }
    const value = source[key];
    if (value === null) caps[key as BillingCategory] = null;
    else if (typeof value !== 'number' || !Number.isInteger(value))
      problems.push({
        field: key,
        message: 'A cap is a whole number of emails, or null for no cap',
        code: 'invalid_type',
      });
    else if (value < 0 || value > MAX_CAP)
      problems.push({
        field: key,
        message: `A cap is between 0 and ${MAX_CAP}`,
        code: value < 0 ? 'too_small' : 'too_big',
      });
    else caps[key as BillingCategory] = value;
  }
  return problems.length ? { problems } : { caps };
}
