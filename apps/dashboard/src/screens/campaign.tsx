import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Result } from '@herald/sdk';
import { api, fieldErrors, isStatus } from '../api.js';
import { ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, usePoll, useRefusal } from '../ui.js';
import { Ledger } from './campaign-ledger.js';
import { Cancel, localTime, Schedule } from './campaign-schedule.js';
import { audienceCount } from './campaigns.js';
import type { Group } from './filter-builder.js';
import { NotFound } from './projects.js';

type Stats = Result<'recipientsStats'>;
const POLL_MS = 1000;

/**
 * One campaign: its content, template and audience (with its count), a test send, send now or
 * schedule, cancel; then its progress, stats and ledger.
 */
export function Campaign({ projectId, campaignId }: { projectId: string; campaignId: string }) {
  const [round, setRound] = useState(0);
  const [progress, setProgress] = useState('');
  const again = () => setRound((n) => n + 1);
  const campaign = useLoad(() => api(projectId).campaigns.get(campaignId), [projectId, campaignId, round]);
  if (campaign.state === 'loading') return <Loading what="the campaign" />;
  if (campaign.state === 'error')
    return isStatus(campaign.error, 404) || isStatus(campaign.error, 403) ? (
      <NotFound />
    ) : (
      <ErrorNote error={campaign.error} retry={campaign.reload} />
    );
  const c = campaign.data;
  return (
    <Page title={c.name}>
      <p>
        <span class={`badge ${c.status.toLowerCase()}`} data-campaign-status={c.status}>
          {c.status.toLowerCase()}
        </span>
        {c.status === 'SCHEDULED' && c.scheduledAt && (
          <span data-scheduled-at={c.scheduledAt}> for {localTime(c.scheduledAt)}</span>
        )}
      </p>
      <dl class="facts">
        <dt>Subject</dt>
        <dd>{c.subject}</dd>
        <dt>From</dt>
        <dd>{c.from}</dd>
        {c.templateId && (
          <>
            <dt>Template</dt>
            <dd>
              <TemplateName projectId={projectId} templateId={c.templateId} />
            </dd>
          </>
        )}
        <dt>Audience</dt>
        <dd>
          <AudienceCount
            projectId={projectId}
            segmentId={c.audienceType === 'SEGMENT' ? c.segmentId : null}
            filter={c.audienceType === 'FILTERED' ? (c.audienceFilter as Group | null) : null}
          />
        </dd>
      </dl>
      <TestSend projectId={projectId} campaignId={c.id} />
      {(c.status === 'DRAFT' || c.status === 'SCHEDULED') && (
        <>
          <SendNow projectId={projectId} campaignId={c.id} onSent={again} />
          <Schedule projectId={projectId} campaignId={c.id} scheduledAt={c.scheduledAt} onScheduled={again} />
        </>
      )}
      {(c.status === 'SCHEDULED' || c.status === 'SENDING') && (
        <Cancel projectId={projectId} campaignId={c.id} sending={c.status === 'SENDING'} onCancelled={again} />
      )}
      {c.status !== 'DRAFT' && c.status !== 'SCHEDULED' && (
        <>
          <CampaignStats
            projectId={projectId}
            campaignId={c.id}
            onProgress={setProgress}
            // the ledger is complete: read the campaign again for its final status (SENT)
            onComplete={c.status === 'SENDING' ? again : undefined}
          />
          <Ledger projectId={projectId} campaignId={c.id} version={progress} />
        </>
      )}
      <p>
        <a href={`/app/p/${projectId}/campaigns`}>All campaigns</a>
      </p>
    </Page>
  );
}

function TemplateName({ projectId, templateId }: { projectId: string; templateId: string }) {
  const template = useLoad(
    () => api(projectId).request('get', '/templates/{id}', { path: { id: templateId } }),
    [projectId, templateId],
  );
  return (
    <a href={`/app/p/${projectId}/templates/${templateId}`} data-template={templateId}>
      {template.state === 'ready' ? template.data.name : templateId}
    </a>
  );
}

function AudienceCount({
  projectId,
  segmentId,
  filter,
}: {
  projectId: string;
  segmentId: string | null;
  filter: Group | null;
}) {
  const count = useLoad(() => audienceCount(projectId, segmentId, filter), [projectId, segmentId]);
  const what = filter ? 'the contacts matching its filter' : segmentId ? 'the segment' : 'every subscribed contact';
  if (count.state === 'loading') return <span>{what}, counting…</span>;
  if (count.state === 'error') return <span>{what} (count failed)</span>;
  return (
    <span data-audience-count={count.data}>
      {what}: {count.data} contact(s)
    </span>
  );
}

function TestSend({ projectId, campaignId }: { projectId: string; campaignId: string }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSent(null);
    refusal.clear();
    try {
      const answer = await api(projectId).request('post', '/campaigns/{id}/test', {
        path: { id: campaignId },
        body: { email },
      });
      setSent(answer.email);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card wide" onSubmit={(e) => void submit(e)} aria-labelledby="test-heading">
      <h2 id="test-heading">Test send</h2>
      <RefusalAlert message={refusal.message} />
      <Field
        name="email"
        type="email"
        label="Send a test to"
        value={email}
        error={refusal.fields.email}
        required
        onInput={setEmail}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'Send test'}
      </button>{' '}
      <span role="status">{sent && `Test queued to ${sent}.`}</span>
    </form>
  );
}

function SendNow({ projectId, campaignId, onSent }: { projectId: string; campaignId: string; onSent: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const send = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await api(projectId).campaigns.send(campaignId);
      onSent();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="send-heading">
      <h2 id="send-heading">Send</h2>
      {failure !== null && <ErrorNote error={failure} />}
      {confirming ? (
        <>
          <button type="button" disabled={busy} onClick={() => void send()}>
            Yes, send to the whole audience now
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Not yet
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Send now
        </button>
      )}
    </section>
  );
}

const ROWS: [keyof Stats, string][] = [
  ['recipients', 'Recipients'],
  ['sent', 'Sent'],
  ['pending', 'Pending'],
  ['queued', 'Queued'],
  ['skipped', 'Skipped'],
  ['failed', 'Failed'],
];

/** The ledger's counts, followed until nothing is pending or queued. */
function CampaignStats({
  projectId,
  campaignId,
  onProgress,
  onComplete,
}: {
  projectId: string;
  campaignId: string;
  /** Called with a key that changes as recipients reach a final state. */
  onProgress: (key: string) => void;
  onComplete?: (() => void) | undefined;
}) {
  // settled once the campaign has left SENDING and nothing is pending or queued (a campaign whose
  // audience is not resolved yet has no recipients and nothing pending: complete, but not done)
  const poll = usePoll(
    async () => {
      const [answer, campaign] = await Promise.all([
        api(projectId).request('get', '/campaigns/{id}/stats', { path: { id: campaignId } }),
        api(projectId).campaigns.get(campaignId),
      ]);
      const settled = answer.complete && campaign.status !== 'SENDING' && campaign.status !== 'SCHEDULED';
      return { stats: { ...answer, complete: settled }, cancelled: campaign.status === 'CANCELLED' };
    },
    (answer) => answer.stats.complete,
    POLL_MS,
    [projectId, campaignId],
  );
  useEffect(() => {
    if (!poll.data) return;
    const { stats } = poll.data;
    onProgress(`${stats.recipients}:${stats.sent}:${stats.skipped}:${stats.failed}:${String(stats.complete)}`);
    if (stats.complete) onComplete?.();
  }, [poll.data]);
  if (poll.failure !== null) return <ErrorNote error={poll.failure} retry={poll.reload} />;
  if (!poll.data) return <Loading what="the campaign's stats" />;
  const { stats, cancelled } = poll.data;
  return (
    <section class="card" aria-labelledby="stats-heading" data-complete={String(stats.complete)}>
      <h2 id="stats-heading">
        Stats{' '}
        {stats.complete
          ? ''
          : cancelled
            ? '(cancelled: the emails already handed over are on their way)'
            : '(sending…)'}
      </h2>
      {!stats.complete && stats.recipients > 0 && (
        <progress
          max={stats.recipients}
          value={stats.recipients - stats.pending - stats.queued}
          aria-label="Sending progress"
        />
      )}
      <p data-progress={`${stats.sent}/${stats.recipients}`}>
        {stats.sent} of {stats.recipients} sent
        {stats.skipped > 0 && `, ${stats.skipped} skipped`}
        {stats.failed > 0 && `, ${stats.failed} failed`}
      </p>
      <dl class="facts">
        {ROWS.map(([key, label]) => (
          <Fragment key={key}>
            <dt>{label}</dt>
            <dd data-stat={key}>{String(stats[key])}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
