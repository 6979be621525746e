/** Bounce and complaint counts over one window of sends. */
export interface WindowCounts {
  sends: number;
  bounces: number;
  complaints: number;
}

export interface WindowRates extends WindowCounts {
  bounceRate: number;
  complaintRate: number;
}

export interface ReputationThresholds {
  bounceWarn: number;
  bounceSuspend: number;
  complaintWarn: number;
  complaintSuspend: number;
  /** No warning or suspension below this many sends in a window. */
  minSends: number;
}

/** The mailbox providers' rules (Gmail, Yahoo: spam rate under 0.3%), and a common bounce ceiling. */
export const DEFAULT_THRESHOLDS: ReputationThresholds = {
  complaintWarn: 0.001,
  complaintSuspend: 0.003,
  bounceWarn: 0.05,
  bounceSuspend: 0.1,
  minSends: 100,
};

export const rates = (c: WindowCounts): WindowRates => ({
  ...c,
  bounceRate: c.sends ? c.bounces / c.sends : 0,
  complaintRate: c.sends ? c.complaints / c.sends : 0,
});

export type Verdict =
  | { status: 'ok' }
  | { status: 'warning'; reason: 'bounce_rate' | 'complaint_rate' }
  | { status: 'breach'; reason: 'bounce_rate' | 'complaint_rate'; window: WindowRates };

/**
 * The verdict over the windows (the last 7 days, the last 1,000 sends): a breach when any window with
 * at least `minSends` sends passes a suspend threshold (complaints first: they weigh most with
 * mailbox providers), else a warning when it passes a warn threshold. A rate equal to the threshold passes it only when above.
 */
export function judge(windows: WindowRates[], t: ReputationThresholds): Verdict {
  const eligible = windows.filter((w) => w.sends >= t.minSends && w.sends > 0);
  for (const w of eligible)
    if (w.complaintRate > t.complaintSuspend) return { status: 'breach', reason: 'complaint_rate', window: w };
  for (const w of eligible)
    if (w.bounceRate > t.bounceSuspend) return { status: 'breach', reason: 'bounce_rate', window: w };
  for (const w of eligible)
    if (w.complaintRate > t.complaintWarn) return { status: 'warning', reason: 'complaint_rate' };
  for (const w of eligible) if (w.bounceRate > t.bounceWarn) return { status: 'warning', reason: 'bounce_rate' };
  return { status: 'ok' };
}
