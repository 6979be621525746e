import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import type { Result } from '@herald/sdk';
import { api, fieldErrors, isStatus } from '../api.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { listDomains } from './domains.js';
import { GroupEditor, type Group } from './filter-builder.js';
import { NotFound } from './projects.js';
import { listSegments } from './segments.js';

type Template = Result<'templatesList'>['data'][number];

/** How many contacts an audience reaches: every subscribed contact, a segment's members, or a filter's matches. */
export async function audienceCount(
  projectId: string,
  segmentId: string | null,
  filter: Group | null = null,
): Promise<number> {
  if (filter) return (await api(projectId).request('post', '/segments/count', { body: { filters: filter } })).total;
  if (segmentId) {
    const s = await api(projectId).request('post', '/segments/{id}/refresh', { path: { id: segmentId } });
    return s.memberCount;
  }
  return (await api(projectId).contacts.list({ subscribed: true, limit: 1 })).total;
}

/** A project's campaigns (newest first), and the composer of a new one. */
export function Campaigns({ projectId }: { projectId: string }) {
  const campaigns = useLoad(() => api(projectId).campaigns.list({ limit: 50 }), [projectId]);
  return (
    <Page title="Campaigns">
      {campaigns.state === 'loading' && <Loading what="campaigns" />}
      {campaigns.state === 'error' &&
        (isStatus(campaigns.error, 403) ? (
          <NotFound />
        ) : (
          <ErrorNote error={campaigns.error} retry={campaigns.reload} />
        ))}
      {campaigns.state === 'ready' &&
        (campaigns.data.campaigns.length === 0 ? (
          <Empty>No campaign yet: compose the first one below.</Empty>
        ) : (
          <ul class="list">
            {campaigns.data.campaigns.map((c) => (
              <li key={c.id}>
                <a href={`/app/p/${projectId}/campaigns/${c.id}`}>{c.name}</a>{' '}
                <span class={`badge ${c.status.toLowerCase()}`}>{c.status.toLowerCase()}</span>
              </li>
            ))}
          </ul>
        ))}
      <Compose projectId={projectId} />
    </Page>
  );
}

function Compose({ projectId }: { projectId: string }) {
  const { route } = useLocation();
  const options = useLoad(
    () =>
      Promise.all([
        listDomains(projectId),
        listSegments(projectId),
        api(projectId).request('get', '/templates', { query: { limit: 100 } }),
        api(projectId).request('get', '/contacts/fields'),
      ]).then(([d, s, t, f]) => ({ domains: d, segments: s, templates: t.data, fields: f.fields })),
    [projectId],
  );
  const [form, setForm] = useState({
    name: '',
    subject: '',
    body: '',
    local: 'news',
    domain: '',
    segmentId: '',
    templateId: '',
  });
  const [audience, setAudience] = useState<'ALL' | 'SEGMENT' | 'FILTERED'>('ALL');
  const [filter, setFilter] = useState<Group>({ operator: 'AND', conditions: [] });
  const counted = useLoad(
    () =>
      audienceCount(
        projectId,
        audience === 'SEGMENT' ? form.segmentId || null : null,
        audience === 'FILTERED' ? filter : null,
      ),
    [projectId, audience, form.segmentId, audience === 'FILTERED' && JSON.stringify(filter)],
  );
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  if (options.state === 'loading') return <Loading what="verified domains and segments" />;
  if (options.state === 'error') return <ErrorNote error={options.error} retry={options.reload} />;
  const verified = options.data.domains.filter((d) => d.status === 'verified');
  const domain = form.domain || verified[0]?.domain || '';
  const segmentId = form.segmentId || options.data.segments[0]?.id || '';
  // a campaign's body is HTML: a Markdown template's body would be sent as HTML, so only HTML ones are offered
  const templates = options.data.templates.filter((t) => t.format === 'html');
  /** From a template: the campaign names it and starts from a copy of its subject, body and sender. */
  const useTemplate = (id: string) => {
    const t: Template | undefined = templates.find((x) => x.id === id);
    if (!t) return setForm((f) => ({ ...f, templateId: '' }));
    const [local, at] = (t.from ?? '').split('@');
    const onVerified = at !== undefined && verified.some((d) => d.domain === at);
    setForm((f) => ({
      ...f,
      templateId: t.id,
      name: f.name || t.name,
      subject: t.subject,
      body: t.body,
      ...(onVerified && local ? { local, domain: at } : {}),
    }));
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const created = await api(projectId).campaigns.create({
        name: form.name,
        subject: form.subject,
        body: form.body,
        from: `${form.local}@${domain}`,
        ...(form.templateId ? { templateId: form.templateId } : {}),
        audienceType: audience,
        ...(audience === 'SEGMENT' ? { segmentId } : {}),
        ...(audience === 'FILTERED' ? { audienceFilter: filter } : {}),
      });
      route(`/app/p/${projectId}/campaigns/${created.data.id}`);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const fromError = refusal.fields.from;
  return (
    <form class="card wide" onSubmit={(e) => void submit(e)} aria-labelledby="compose-heading">
      <h2 id="compose-heading">Compose a campaign</h2>
      <RefusalAlert message={refusal.message} />
      <div class="field">
        <label for="field-templateId">Start from</label>
        <select
          id="field-templateId"
          value={form.templateId}
          aria-invalid={refusal.fields.templateId ? 'true' : undefined}
          aria-describedby={refusal.fields.templateId ? 'field-templateId-error' : 'field-templateId-hint'}
          onChange={(e) => useTemplate((e.target as HTMLSelectElement).value)}
        >
          <option value="">Scratch</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              Template: {t.name}
            </option>
          ))}
        </select>
        <p class="muted" id="field-templateId-hint">
          {templates.length === 0
            ? 'No HTML template in this project yet.'
            : 'A template fills in its subject, body and sender; edit them freely.'}
        </p>
        {refusal.fields.templateId && (
          <p class="field-error" id="field-templateId-error">
            {refusal.fields.templateId}
          </p>
        )}
      </div>
      <Field
        name="name"
        label="Campaign name"
        value={form.name}
        error={refusal.fields.name}
        required
        onInput={set('name')}
      />
      <Field
        name="subject"
        label="Subject"
        value={form.subject}
        error={refusal.fields.subject}
        required
        onInput={set('subject')}
      />
      <div class="field">
        <label for="field-body">Body (HTML; {'{{unsubscribeUrl}}'} for the unsubscribe link)</label>
        <textarea
          id="field-body"
          name="body"
          rows={6}
          required
          value={form.body}
          aria-invalid={refusal.fields.body ? 'true' : undefined}
          aria-describedby={refusal.fields.body ? 'field-body-error' : undefined}
          onInput={(e) => set('body')((e.target as HTMLTextAreaElement).value)}
        />
        {refusal.fields.body && (
          <p class="field-error" id="field-body-error">
            {refusal.fields.body}
          </p>
        )}
      </div>
      {verified.length === 0 ? (
        <p class="notice">
          No verified domain: <a href={`/app/p/${projectId}/domains`}>add and verify the domain you send from</a>.
        </p>
      ) : (
        <div class="field">
          <span id="from-label">From</span>
          <div class="inline-form">
            <label for="field-local" class="sr-only">
              Address before the @
            </label>
            <input
              id="field-local"
              value={form.local}
              aria-labelledby="from-label field-local"
              aria-invalid={fromError ? 'true' : undefined}
              aria-describedby={fromError ? 'field-from-error' : undefined}
              onInput={(e) => set('local')((e.target as HTMLInputElement).value)}
            />
            <span>@</span>
            <label for="field-domain" class="sr-only">
              Verified domain
            </label>
            <select
              id="field-domain"
              value={domain}
              onChange={(e) => set('domain')((e.target as HTMLSelectElement).value)}
            >
              {verified.map((d) => (
                <option key={d.id} value={d.domain}>
                  {d.domain}
                </option>
              ))}
            </select>
          </div>
          {fromError && (
            <p class="field-error" id="field-from-error">
              {fromError}
            </p>
          )}
        </div>
      )}
      <fieldset class="group">
        <legend>Audience</legend>
        <label>
          <input type="radio" name="audience" checked={audience === 'ALL'} onChange={() => setAudience('ALL')} /> Every
          subscribed contact
        </label>{' '}
        <label>
          <input
            type="radio"
            name="audience"
            checked={audience === 'SEGMENT'}
            disabled={options.data.segments.length === 0}
            onChange={() => setAudience('SEGMENT')}
          />{' '}
          A segment
        </label>
        {audience === 'SEGMENT' && (
          <div class="field">
            <label for="field-segmentId">Segment</label>
            <select
              id="field-segmentId"
              value={segmentId}
              onChange={(e) => set('segmentId')((e.target as HTMLSelectElement).value)}
            >
              {options.data.segments.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
            {refusal.fields.segmentId && <p class="field-error">{refusal.fields.segmentId}</p>}
          </div>
        )}
        <label>
          <input
            type="radio"
            name="audience"
            checked={audience === 'FILTERED'}
            disabled={options.data.fields.length === 0}
            onChange={() => setAudience('FILTERED')}
          />{' '}
          Contacts matching a filter
        </label>
        {audience === 'FILTERED' && (
          <>
            <GroupEditor
              group={filter}
              fields={options.data.fields}
              errors={refusal.fields}
              path="audienceFilter"
              onChange={setFilter}
            />
            {refusal.fields.audienceFilter && <p class="field-error">{refusal.fields.audienceFilter}</p>}
          </>
        )}
        <p class="count" role="status" data-audience-count={counted.state === 'ready' ? counted.data : undefined}>
          {counted.state === 'ready'
            ? `${counted.data} contact(s) in this audience`
            : counted.state === 'loading'
              ? 'Counting…'
              : 'The count failed.'}
        </p>
      </fieldset>
      <button type="submit" disabled={busy || verified.length === 0}>
        {busy ? 'Saving…' : 'Save draft'}
      </button>
    </form>
  );
}
