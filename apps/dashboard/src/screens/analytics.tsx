import { useState } from 'preact/hooks';
import type { Query, Result } from '@herald/sdk';
import { api } from '../api.js';
import { Empty, ErrorNote, Loading, Page, useLoad } from '../ui.js';

type Metric = NonNullable<Query<'analyticsTimeseries'>['metrics']>[number];
type Interval = 'hour' | 'day';
type TopMetric = NonNullable<Query<'analyticsTopCampaigns'>['metric']>;
type Series = Result<'analyticsTimeseries'>;
type TopCampaign = Result<'analyticsTopCampaigns'>['campaigns'][number];

const METRICS: Metric[] = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'];
const TOP_METRICS: [TopMetric, string][] = [
  ['opens', 'Unique opens'],
  ['clicks', 'Unique clicks'],
  ['openRate', 'Open rate'],
  ['clickRate', 'Click rate'],
];
/** How far back each interval looks (the API's own defaults: 48 hours, 30 days). */
const SPAN_MS: Record<Interval, number> = { hour: 48 * 3600_000, day: 30 * 86400_000 };

/**
 * Screen 9, analytics: the time series (`GET /analytics/timeseries`) drawn as a line chart and the
 * top campaigns (`GET /analytics/top-campaigns`) as a bar chart, both hand-drawn SVG (docs/dashboard.md).
 */
export function Analytics({ projectId }: { projectId: string }) {
  const [interval, setStep] = useState<Interval>('day');
  const [metrics, setMetrics] = useState<Metric[]>(['sent', 'delivered', 'opened', 'clicked']);
  const [topMetric, setTopMetric] = useState<TopMetric>('opens');
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const series = useLoad(() => {
    const to = new Date();
    return api(projectId).request('get', '/analytics/timeseries', {
      query: {
        metrics,
        interval,
        tz,
        from: new Date(to.getTime() - SPAN_MS[interval]).toISOString(),
        to: to.toISOString(),
      },
    });
  }, [projectId, interval, metrics.join(',')]);
  const top = useLoad(
    () => api(projectId).request('get', '/analytics/top-campaigns', { query: { metric: topMetric, limit: 10 } }),
    [projectId, topMetric],
  );
  return (
    <Page title="Analytics">
      <section class="card wide" aria-labelledby="series-heading">
        <h2 id="series-heading">Emails over time</h2>
        <div class="controls">
          <label for="series-interval">Interval</label>{' '}
          <select
            id="series-interval"
            value={interval}
            onChange={(e) => setStep((e.target as HTMLSelectElement).value as Interval)}
          >
            <option value="day">Days (last 30)</option>
            <option value="hour">Hours (last 48)</option>
          </select>
          <fieldset class="metrics">
            <legend>Metrics</legend>
            {METRICS.map((m) => (
              <label key={m} class={`metric metric-${m}`}>
                <input
                  type="checkbox"
                  checked={metrics.includes(m)}
                  // at least one: the API needs a metric
                  disabled={metrics.length === 1 && metrics.includes(m)}
                  onChange={(e) =>
                    setMetrics(
                      (e.target as HTMLInputElement).checked
                        ? METRICS.filter((x) => x === m || metrics.includes(x))
                        : metrics.filter((x) => x !== m),
                    )
                  }
                />{' '}
                {m}
              </label>
            ))}
          </fieldset>
        </div>
        {series.state === 'loading' ? (
          <Loading what="the time series" />
        ) : series.state === 'error' ? (
          <ErrorNote error={series.error} retry={series.reload} />
        ) : (
          <SeriesChart series={series.data} metrics={metrics} />
        )}
      </section>
      <section class="card wide" aria-labelledby="top-heading">
        <h2 id="top-heading">Top campaigns</h2>
        <label for="top-metric">By</label>{' '}
        <select
          id="top-metric"
          value={topMetric}
          onChange={(e) => setTopMetric((e.target as HTMLSelectElement).value as TopMetric)}
        >
          {TOP_METRICS.map(([m, label]) => (
            <option key={m} value={m}>
              {label}
            </option>
          ))}
        </select>
        {top.state === 'loading' ? (
          <Loading what="the top campaigns" />
        ) : top.state === 'error' ? (
          <ErrorNote error={top.error} retry={top.reload} />
        ) : top.data.campaigns.length === 0 ? (
          <Empty>No campaign has been sent yet.</Empty>
        ) : (
          <TopChart projectId={projectId} campaigns={top.data.campaigns} metric={topMetric} />
        )}
      </section>
    </Page>
  );
}

const W = 640;
const H = 220;
const PAD = { left: 40, right: 30, top: 10, bottom: 28 };

/** A round upper bound for the axis: 1, 2, 5 × 10ⁿ. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * p >= value) ?? 10) * p;
}

const count = (bucket: Series['buckets'][number], m: Metric) => Number(bucket[m] ?? 0);

function SeriesChart({ series, metrics }: { series: Series; metrics: Metric[] }) {
  const buckets = series.buckets;
  const totals = metrics.map((m) => [m, buckets.reduce((sum, b) => sum + count(b, m), 0)] as const);
  if (buckets.length === 0) return <Empty>No bucket in this range.</Empty>;
  const max = niceMax(Math.max(0, ...buckets.flatMap((b) => metrics.map((m) => count(b, m)))));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (buckets.length === 1 ? plotW / 2 : (i * plotW) / (buckets.length - 1));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const label = (start: string) =>
    series.interval === 'day'
      ? new Date(start).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
      : new Date(start).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const every = Math.max(1, Math.ceil(buckets.length / 6));
  return (
    <>
      <svg
        class="chart"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Per ${series.interval}: ${totals.map(([m, t]) => `${t} ${m}`).join(', ')}`}
      >
        {[0, 0.5, 1]
          .filter((f) => Number.isInteger(max * f)) // counts: no tick between 0 and 1
          .map((f) => (
            <g key={f}>
              <line class="grid" x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} />
              <text class="axis" x={PAD.left - 6} y={y(max * f) + 4} text-anchor="end">
                {Math.round(max * f)}
              </text>
            </g>
          ))}
        {buckets.map((b, i) =>
          i % every === 0 ? (
            <text key={b.start} class="axis" x={x(i)} y={H - 8} text-anchor="middle">
              {label(b.start)}
            </text>
          ) : null,
        )}
        {metrics.map((m) => (
          <g key={m} class={`series metric-${m}`} data-series={m}>
            <polyline points={buckets.map((b, i) => `${x(i)},${y(count(b, m))}`).join(' ')} />
            {buckets.map((b, i) =>
              count(b, m) > 0 ? (
                <circle key={b.start} cx={x(i)} cy={y(count(b, m))} r="3">
                  <title>
                    {label(b.start)}: {count(b, m)} {m}
                  </title>
                </circle>
              ) : null,
            )}
          </g>
        ))}
      </svg>
      <dl class="facts legend">
        {totals.map(([m, total]) => (
          <div key={m} class={`metric-${m}`}>
            <dt>{m}</dt>
            <dd data-total={m}>{total}</dd>
          </div>
        ))}
      </dl>
      <details>
        <summary>
          The numbers, {series.interval} by {series.interval}
        </summary>
        <table>
          <thead>
            <tr>
              <th scope="col">From</th>
              {metrics.map((m) => (
                <th key={m} scope="col">
                  {m}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {buckets
              .filter((b) => metrics.some((m) => count(b, m) > 0))
              .map((b) => (
                <tr key={b.start}>
                  <td>{new Date(b.start).toLocaleString()}</td>
                  {metrics.map((m) => (
                    <td key={m}>{count(b, m)}</td>
                  ))}
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

const value = (c: TopCampaign, metric: TopMetric) =>
  metric === 'opens'
    ? c.uniqueOpens
    : metric === 'clicks'
      ? c.uniqueClicks
      : metric === 'openRate'
        ? c.rates.open
        : c.rates.click;
const shown = (v: number, metric: TopMetric) =>
  metric === 'openRate' || metric === 'clickRate' ? `${(v * 100).toFixed(1)} %` : String(v);

function TopChart({
  projectId,
  campaigns,
  metric,
}: {
  projectId: string;
  campaigns: TopCampaign[];
  metric: TopMetric;
}) {
  const rowH = 28;
  const labelW = 200;
  const barW = W - labelW - 70;
  const max = Math.max(...campaigns.map((c) => value(c, metric)), metric.endsWith('Rate') ? 0 : 1) || 1;
  return (
    <>
      <svg
        class="chart"
        viewBox={`0 0 ${W} ${campaigns.length * rowH + 4}`}
        role="img"
        aria-label={campaigns.map((c) => `${c.name ?? c.campaignId}: ${shown(value(c, metric), metric)}`).join('; ')}
      >
        {campaigns.map((c, i) => (
          <g key={c.campaignId} transform={`translate(0 ${i * rowH})`}>
            <text class="label" x={labelW - 8} y={rowH / 2 + 4} text-anchor="end">
              {(c.name ?? c.campaignId).slice(0, 28)}
            </text>
            <rect class="bar" x={labelW} y={4} height={rowH - 8} width={(value(c, metric) / max) * barW} />
            <text class="axis" x={labelW + (value(c, metric) / max) * barW + 6} y={rowH / 2 + 4}>
              {shown(value(c, metric), metric)}
            </text>
          </g>
        ))}
      </svg>
      <table>
        <thead>
          <tr>
            <th scope="col">Campaign</th>
            <th scope="col">Sent</th>
            <th scope="col">Delivered</th>
            <th scope="col">Opens</th>
            <th scope="col">Clicks</th>
            <th scope="col">Bounces</th>
          </tr>
        </thead>
        <tbody>
          {campaigns.map((c) => (
            <tr key={c.campaignId} data-campaign={c.campaignId}>
              <td>
                <a href={`/app/p/${projectId}/campaigns/${c.campaignId}`}>{c.name ?? c.campaignId}</a>
              </td>
              <td data-field="sent">{c.sent}</td>
              <td>{c.delivered}</td>
              <td>{c.uniqueOpens}</td>
              <td>{c.uniqueClicks}</td>
              <td>{c.bounces}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
