import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { Result } from '@herald/sdk';
import { api, fieldErrors } from '../api.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';

type Consumption = Result<'billingConsumption'>;
type Limits = Result<'billingLimits'>;
type Security = Result<'securityMine'>;
type Capped = 'transactional' | 'campaign' | 'workflow';
const CATEGORIES: [keyof Consumption['categories'], string][] = [
  ['transactional', 'Transactional emails'],
  ['campaign', 'Campaign emails'],
  ['workflow', 'Workflow emails'],
  ['events', 'Events tracked'],
  ['contacts', 'Contacts stored'],
];
const CAPPED: [Capped, string][] = [
  ['transactional', 'Transactional cap'],
  ['campaign', 'Campaign cap'],
  ['workflow', 'Workflow cap'],
];
const percent = (rate: number) => `${(rate * 100).toFixed(2)} %`;

/**
 * Project billing and security: this period's consumption by category against its caps (`GET
 * /users/@me/projects/:id/billing-consumption`), the caps (`…/billing-limits`, PUT: a whole number
 * or empty for none), and the sending reputation (`…/security`: bounce and complaint rates, the
 * thresholds, per-domain rates, the suspension and past ones).
 */
export function Billing({ projectId }: { projectId: string }) {
  const [round, setRound] = useState(0);
  // the caps as the last save answered them: the table shows them as soon as the save is confirmed,
  // while the consumption is read again
  const [savedCaps, setSavedCaps] = useState<Limits | null>(null);
  const usage = useLoad(
    () => api().request('get', '/users/@me/projects/{id}/billing-consumption', { path: { id: projectId } }),
    [projectId, round],
  );
  const limits = useLoad(
    () => api().request('get', '/users/@me/projects/{id}/billing-limits', { path: { id: projectId } }),
    [projectId],
  );
  const security = useLoad(
    () => api().request('get', '/users/@me/projects/{id}/security', { path: { id: projectId } }),
    [projectId],
  );
  return (
    <Page title="Billing and security">
      <section class="card wide" aria-labelledby="usage-heading">
        <h2 id="usage-heading">Consumption this period</h2>
        {usage.state === 'loading' ? (
          <Loading what="the consumption" />
        ) : usage.state === 'error' ? (
          <ErrorNote error={usage.error} retry={usage.reload} />
        ) : (
          <UsageTable usage={usage.data} savedCaps={savedCaps} />
        )}
      </section>
      {limits.state === 'loading' ? (
        <Loading what="the caps" />
      ) : limits.state === 'error' ? (
        <ErrorNote error={limits.error} retry={limits.reload} />
      ) : (
        <CapsForm
          projectId={projectId}
          limits={limits.data}
          onSaved={(answer) => {
            setSavedCaps(answer);
            setRound((n) => n + 1);
          }}
        />
      )}
      <section class="card wide" aria-labelledby="security-heading">
        <h2 id="security-heading">Security</h2>
        {security.state === 'loading' ? (
          <Loading what="the sending reputation" />
        ) : security.state === 'error' ? (
          <ErrorNote error={security.error} retry={security.reload} />
        ) : (
          <Reputation security={security.data} />
        )}
      </section>
    </Page>
  );
}

function UsageTable({ usage, savedCaps }: { usage: Consumption; savedCaps: Limits | null }) {
  const capOf = (key: string, read: number | null) =>
    savedCaps && CAPPED.some(([k]) => k === key) ? savedCaps[key as Capped] : read;
  return (
    <>
      <p class="muted">
        {new Date(usage.periodStart).toLocaleDateString()} to {new Date(usage.periodEnd).toLocaleDateString()}
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col">Used</th>
            <th scope="col">Cap</th>
            <th scope="col">
              <span class="sr-only">Share of the cap</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {CATEGORIES.map(([key, label]) => {
            const read = usage.categories[key];
            const line = { ...read, cap: capOf(key, read.cap) };
            const counted = Math.max(line.used, line.admitted ?? 0);
            return (
              <tr key={key} data-category={key}>
                <th scope="row">{label}</th>
                <td data-field="used">{line.used}</td>
                <td data-field="cap">{line.cap === null ? 'none' : line.cap}</td>
                <td>
                  {line.cap !== null && line.cap > 0 && (
                    <meter min={0} max={line.cap} value={counted} aria-label={`${label}: ${counted} of ${line.cap}`} />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

function CapsForm({
  projectId,
  limits,
  onSaved,
}: {
  projectId: string;
  limits: Limits;
  onSaved: (answer: Limits) => void;
}) {
  const shownCap = (v: number | null) => (v === null ? '' : String(v));
  const [caps, setCaps] = useState<Record<Capped, string>>({
    transactional: shownCap(limits.transactional),
    campaign: shownCap(limits.campaign),
    workflow: shownCap(limits.workflow),
  });
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const refusal = useRefusal();
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaved(false);
    refusal.clear();
    const body: Record<string, unknown> = {};
    // an empty field: no cap; anything else is sent as typed, a number when it reads as one (the API says why not)
    for (const [key] of CAPPED) {
      const typed = caps[key].trim();
      body[key] = typed === '' ? null : /^-?\d+(\.\d+)?$/.test(typed) ? Number(typed) : typed;
    }
    try {
      const answer = await api().request('put', '/users/@me/projects/{id}/billing-limits', {
        path: { id: projectId },
        body,
      });
      setCaps({
        transactional: shownCap(answer.transactional),
        campaign: shownCap(answer.campaign),
        workflow: shownCap(answer.workflow),
      });
      setSaved(true);
      onSaved(answer);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card wide" onSubmit={(e) => void save(e)} aria-labelledby="caps-heading">
      <h2 id="caps-heading">Caps</h2>
      <p class="muted">Emails per period in each category; empty for no cap. A send past its cap is refused.</p>
      <RefusalAlert message={refusal.message} />
      {CAPPED.map(([key, label]) => (
        <Field
          key={key}
          name={key}
          label={label}
          value={caps[key]}
          error={refusal.fields[key]}
          onInput={(v) => setCaps({ ...caps, [key]: v })}
        />
      ))}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save caps'}
      </button>{' '}
      <span role="status">{saved && 'Caps saved.'}</span>
    </form>
  );
}

function Reputation({ security }: { security: Security }) {
  const t = security.thresholds;
  return (
    <div data-security-status={security.status}>
      <p>
        Status: <span class={`badge ${security.status}`}>{security.status}</span>
        {security.warning && ` (${security.warning.replace('_', ' ')} past its warning threshold)`}
      </p>
      {security.suspension && (
        <p class="error" role="alert">
          Sending suspended since {new Date(security.suspension.suspendedAt).toLocaleString()}:{' '}
          {security.suspension.reason}.
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th scope="col">Window</th>
            <th scope="col">Sends</th>
            <th scope="col">Bounce rate</th>
            <th scope="col">Complaint rate</th>
          </tr>
        </thead>
        <tbody>
          {(
            [
              ['last7Days', 'Last 7 days'],
              ['last1000Sends', 'Last 1,000 sends'],
            ] as const
          ).map(([key, label]) => {
            const r = security.rates[key];
            return (
              <tr key={key} data-window={key}>
                <th scope="row">{label}</th>
                <td data-field="sends">{r.sends}</td>
                <td data-field="bounceRate">
                  {percent(r.bounceRate)} <span class="muted">({r.bounces})</span>
                </td>
                <td data-field="complaintRate">
                  {percent(r.complaintRate)} <span class="muted">({r.complaints})</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p class="muted">
        Warned past {percent(t.bounceWarn)} bounces or {percent(t.complaintWarn)} complaints; suspended past{' '}
        {percent(t.bounceSuspend)} or {percent(t.complaintSuspend)}; not before {t.minSends} sends in a window.
      </p>
      <h3>By sender domain (last 7 days)</h3>
      {security.domains.length === 0 ? (
        <Empty>No email sent in the last 7 days.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Domain</th>
              <th scope="col">Sends</th>
              <th scope="col">Bounce rate</th>
              <th scope="col">Complaint rate</th>
            </tr>
          </thead>
          <tbody>
            {security.domains.map((d) => (
              <tr key={d.domain}>
                <td>{d.domain}</td>
                <td>{d.sends}</td>
                <td>{percent(d.bounceRate)}</td>
                <td>{percent(d.complaintRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Suspensions</h3>
      {security.recentSuspensions.length === 0 ? (
        <Empty>Never suspended.</Empty>
      ) : (
        <dl class="facts">
          {security.recentSuspensions.map((s) => (
            <Fragment key={s.id}>
              <dt>{new Date(s.suspendedAt).toLocaleString()}</dt>
              <dd>
                {s.reason} (bounces {percent(s.bounceRate)}, complaints {percent(s.complaintRate)} over {s.sends} sends)
                {s.liftedAt ? `, lifted ${new Date(s.liftedAt).toLocaleString()}` : ', in force'}
              </dd>
            </Fragment>
          ))}
        </dl>
      )}
    </div>
  );
}
