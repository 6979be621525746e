import { useEffect, useState } from 'preact/hooks';
import type { components } from '@herald/sdk';
import { api, fieldErrors } from '../api.js';
import { Empty, ErrorNote, Field, Loading, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { listDomains } from './domains.js';
import { GroupEditor, type Group } from './filter-builder.js';
import { SelectField, TextField } from './workflow-controls.js';
import type { Step } from './workflow-graph.js';

/** The step types the editor configures (the API's others are shown, not edited: WEBHOOK, UPDATE_CONTACT). */
export const STEP_TYPES: [string, string][] = [
  ['SEND_EMAIL', 'Send an email'],
  ['CONDITION', 'Condition'],
  ['DELAY', 'Delay'],
  ['WAIT_FOR_EVENT', 'Wait for an event'],
  ['EXIT', 'Exit'],
];
const UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks'];
const FILTER_TYPES = new Set(['string', 'number', 'boolean', 'date']);

type Fields = components['schemas']['FieldDescriptor'];

/**
 * What a condition can name: `GET /workflows/fields` (the contact's fields and, for the trigger's
 * event, the keys of its data seen so far), in the filter builder's shape.
 */
const loadFields = (projectId: string, eventName: string | undefined) =>
  api(projectId)
    .request('get', '/workflows/fields')
    .then((a) =>
      [...a.contact, ...(eventName ? (a.events[eventName] ?? []) : [])]
        .filter((f) => FILTER_TYPES.has(f.type))
        .map((f): Fields => ({ field: f.field, type: f.type as Fields['type'], isCustom: false, coverage: 0 })),
    );

const cfg = (step: Step | null) => (step?.config ?? {}) as Record<string, unknown>;
const str = (v: unknown, fallback = '') => (typeof v === 'string' || typeof v === 'number' ? String(v) : fallback);

/**
 * Adds a step (`POST /workflows/:id/steps`, placed at `position`) or configures one (`PATCH …/steps/:stepId`).
 * An email is written here (a template is created with its subject, body and sender, then the step
 * names it) or an existing template is chosen. The API's field errors are shown on the fields.
 */
export function StepEditor(props: {
  projectId: string;
  workflowId: string;
  workflowName: string;
  eventName: string | undefined;
  step: Step | null;
  position: { x: number; y: number };
  onSaved: (step: Step) => void;
  onRemoved: () => void;
}) {
  const { projectId, workflowId, step } = props;
  const c = cfg(step);
  const [type, setType] = useState(step?.type ?? 'SEND_EMAIL');
  const [name, setName] = useState(step?.name ?? '');
  const [mode, setMode] = useState<'write' | 'template'>(step ? 'template' : 'write');
  const [email, setEmail] = useState({
    subject: '',
    body: '',
    local: 'hello',
    domain: '',
    templateId: str(c.templateId),
  });
  const [delay, setDelay] = useState({ amount: str(c.amount, '1'), unit: str(c.unit, 'hours') });
  const [wait, setWait] = useState({ eventName: str(c.eventName), timeout: str(c.timeout) });
  const [reason, setReason] = useState(str(c.reason));
  const [filter, setFilter] = useState<Group>(
    step?.type === 'CONDITION' && Array.isArray(c.conditions) ? (c as Group) : { operator: 'AND', conditions: [] },
  );
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal('The step was not saved: see the fields below.');
  const e = refusal.fields;

  const configOf = async (): Promise<Record<string, unknown>> => {
    if (type === 'DELAY') return { amount: Number(delay.amount), unit: delay.unit };
    if (type === 'WAIT_FOR_EVENT')
      return { eventName: wait.eventName, ...(wait.timeout ? { timeout: Number(wait.timeout) } : {}) };
    if (type === 'EXIT') return reason ? { reason } : {};
    if (type === 'CONDITION') return filter;
    if (mode === 'template') return { templateId: email.templateId };
    const template = await api(projectId).request('post', '/templates', {
      body: {
        name: `${name || 'Email'} · ${props.workflowName}`,
        subject: email.subject,
        body: email.body,
        // the OpenAPI document types `from` as an object (its custom email validator); the API takes the address
        from: `${email.local}@${email.domain}` as unknown as Record<string, never>,
      },
    });
    // written once: a second save (after a refusal of the step) names this template, not a copy
    setEmail((m) => ({ ...m, templateId: template.id }));
    setMode('template');
    return { templateId: template.id };
  };
  const save = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const config = await configOf();
      const client = api(projectId);
      const saved = step
        ? await client.request('patch', '/workflows/{id}/steps/{stepId}', {
            path: { id: workflowId, stepId: step.id },
            body: { name, config },
          })
        : await client.request('post', '/workflows/{id}/steps', {
            path: { id: workflowId },
            body: { type: type as 'EXIT', name, config, position: props.position },
          });
      props.onSaved(saved);
    } catch (error) {
      const byField = fieldErrors(error);
      if (byField.name) byField['step-name'] = byField.name;
      refusal.show(error, byField);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!step) return;
    setBusy(true);
    refusal.clear();
    try {
      await api(projectId).request('delete', '/workflows/{id}/steps/{stepId}', {
        path: { id: workflowId, stepId: step.id },
      });
      props.onRemoved();
    } catch (error) {
      refusal.show(error, {});
    } finally {
      setBusy(false);
    }
  };
  const editable = STEP_TYPES.some(([t]) => t === type) && !(type === 'CONDITION' && 'branches' in c);
  return (
    <form class="card wide" onSubmit={(ev) => void save(ev)} noValidate aria-labelledby="step-editor-heading">
      <h2 id="step-editor-heading">{step ? `Step ${step.name}` : 'Add a step'}</h2>
      <RefusalAlert message={refusal.message} />
      {!step && (
        <SelectField name="step-type" label="Step type" value={type} onChange={setType}>
          {STEP_TYPES.map(([t, label]) => (
            <option key={t} value={t}>
              {label}
            </option>
          ))}
        </SelectField>
      )}
      <Field name="step-name" label="Step name" value={name} error={e['step-name']} required onInput={setName} />
      {!editable && (
        <pre class="muted" data-config>
          {JSON.stringify(c, null, 2)}
        </pre>
      )}
      {editable && type === 'SEND_EMAIL' && (
        <EmailConfig projectId={projectId} mode={mode} setMode={setMode} email={email} setEmail={setEmail} errors={e} />
      )}
      {editable && type === 'DELAY' && (
        <div class="inline-form">
          <Field
            name="config.amount"
            label="Wait for"
            value={delay.amount}
            error={e['config.amount']}
            onInput={(amount) => setDelay((d) => ({ ...d, amount }))}
          />
          <SelectField
            name="config.unit"
            label="Unit"
            value={delay.unit}
            error={e['config.unit']}
            onChange={(unit) => setDelay((d) => ({ ...d, unit }))}
          >
            {UNITS.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </SelectField>
        </div>
      )}
      {editable && type === 'WAIT_FOR_EVENT' && (
        <>
          <Field
            name="config.eventName"
            label="Event to wait for"
            value={wait.eventName}
            error={e['config.eventName']}
            onInput={(eventName) => setWait((w) => ({ ...w, eventName }))}
          />
          <Field
            name="config.timeout"
            label="Time out after (seconds, optional)"
            value={wait.timeout}
            error={e['config.timeout']}
            onInput={(timeout) => setWait((w) => ({ ...w, timeout }))}
          />
        </>
      )}
      {editable && type === 'EXIT' && (
        <Field
          name="config.reason"
          label="Reason (optional)"
          value={reason}
          error={e['config.reason']}
          onInput={setReason}
        />
      )}
      {editable && type === 'CONDITION' && (
        <ConditionConfig
          projectId={projectId}
          eventName={props.eventName}
          filter={filter}
          setFilter={setFilter}
          errors={e}
        />
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : step ? 'Save step' : 'Add step'}
      </button>{' '}
      {step && (
        <button type="button" disabled={busy} onClick={() => void remove()}>
          Remove step
        </button>
      )}
    </form>
  );
}

type Email = { subject: string; body: string; local: string; domain: string; templateId: string };

function EmailConfig(props: {
  projectId: string;
  mode: 'write' | 'template';
  setMode: (m: 'write' | 'template') => void;
  email: Email;
  setEmail: (f: (m: Email) => Email) => void;
  errors: Record<string, string>;
}) {
  const { email, errors: e } = props;
  const options = useLoad(
    () =>
      Promise.all([
        api(props.projectId).request('get', '/templates', { query: { limit: 100 } }),
        listDomains(props.projectId),
      ]).then(([t, d]) => ({
        templates: t.data,
        domains: d.filter((x) => x.status === 'verified').map((x) => x.domain),
      })),
    [props.projectId],
  );
  const set = (key: keyof Email) => (value: string) => props.setEmail((m) => ({ ...m, [key]: value }));
  const firstDomain = options.state === 'ready' ? options.data.domains[0] : undefined;
  useEffect(() => {
    if (firstDomain && !email.domain) props.setEmail((m) => ({ ...m, domain: firstDomain }));
  }, [firstDomain]);
  if (options.state === 'loading') return <Loading what="templates and verified domains" />;
  if (options.state === 'error') return <ErrorNote error={options.error} retry={options.reload} />;
  const { templates, domains } = options.data;
  const domain = email.domain || domains[0] || '';
  return (
    <fieldset class="group">
      <legend>Email</legend>
      <div role="radiogroup" aria-label="The email's content" class="inline-form">
        <label>
          <input
            type="radio"
            name="email-mode"
            checked={props.mode === 'write'}
            onChange={() => props.setMode('write')}
          />{' '}
          Write it
        </label>
        <label>
          <input
            type="radio"
            name="email-mode"
            checked={props.mode === 'template'}
            onChange={() => props.setMode('template')}
          />{' '}
          Use a template
        </label>
      </div>
      {props.mode === 'template' ? (
        templates.length === 0 ? (
          <Empty>No template yet: write the email instead.</Empty>
        ) : (
          <SelectField
            name="config.templateId"
            label="Template"
            value={email.templateId}
            error={e['config.templateId']}
            onChange={set('templateId')}
          >
            <option value="">Choose a template…</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </SelectField>
        )
      ) : (
        <>
          {domains.length === 0 ? (
            <p class="notice">No verified domain: verify one on the Domains page to send from it.</p>
          ) : (
            <div class="inline-form">
              <Field name="from-local" label="From (name before @)" value={email.local} onInput={set('local')} />
              <SelectField name="from" label="Domain" value={domain} error={e.from} onChange={set('domain')}>
                {domains.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </SelectField>
            </div>
          )}
          <Field name="subject" label="Subject" value={email.subject} error={e.subject} onInput={set('subject')} />
          <TextField name="body" label="Body (HTML, Liquid)" value={email.body} error={e.body} onInput={set('body')} />
        </>
      )}
    </fieldset>
  );
}

function ConditionConfig(props: {
  projectId: string;
  eventName: string | undefined;
  filter: Group;
  setFilter: (g: Group) => void;
  errors: Record<string, string>;
}) {
  const fields = useLoad(() => loadFields(props.projectId, props.eventName), [props.projectId, props.eventName]);
  if (fields.state === 'loading') return <Loading what="the fields a condition can read" />;
  if (fields.state === 'error') return <ErrorNote error={fields.error} retry={fields.reload} />;
  // the API names a condition's parts from `config` (`config.conditions[0].value`): the builder's paths
  const errors = Object.fromEntries(
    Object.entries(props.errors).filter(([k]) => k === 'config' || k.startsWith('config.')),
  );
  return (
    <>
      <p class="muted">The contact (and the triggering event) goes on by “yes” when this matches, else by “no”.</p>
      <GroupEditor group={props.filter} fields={fields.data} errors={errors} path="config" onChange={props.setFilter} />
    </>
  );
}
