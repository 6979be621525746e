import { useEffect, useState } from 'preact/hooks';
import type { components } from '@herald/sdk';
import { api, fieldErrors, isStatus } from '../api.js';
import { CopyButton, Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { NotFound } from './projects.js';

type Domain = components['schemas']['DomainView'];
type DnsRecord = components['schemas']['DomainRecordView'];

export const listDomains = (projectId: string) =>
  api(projectId)
    .request('get', '/domains/project/{projectId}', { path: { projectId } })
    .then((a) => a.domains);

/** A project's sender domains: add one, the DNS records to publish (copy buttons), verify now, each record's diagnosis. */
export function Domains({ projectId }: { projectId: string }) {
  const loaded = useLoad(() => listDomains(projectId), [projectId]);
  const [domains, setDomains] = useState<Domain[]>([]);
  useEffect(() => {
    if (loaded.state === 'ready') setDomains(loaded.data);
  }, [loaded]);
  const replace = (d: Domain) => setDomains((all) => all.map((x) => (x.id === d.id ? d : x)));
  return (
    <Page title="Domains">
      <AddDomain projectId={projectId} onAdded={(d) => setDomains((all) => [...all, d])} />
      {loaded.state === 'loading' && <Loading what="domains" />}
      {loaded.state === 'error' &&
        (isStatus(loaded.error, 403) ? <NotFound /> : <ErrorNote error={loaded.error} retry={loaded.reload} />)}
      {loaded.state === 'ready' &&
        (domains.length === 0 ? (
          <Empty>No domain yet: add the domain you send from, then publish its records.</Empty>
        ) : (
          domains.map((d) => <DomainCard key={d.id} projectId={projectId} domain={d} onChecked={replace} />)
        ))}
    </Page>
  );
}

function AddDomain({ projectId, onAdded }: { projectId: string; onAdded: (d: Domain) => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      onAdded(await api(projectId).request('post', '/domains', { body: { domain: name.trim() } }));
      setName('');
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)} aria-label="Add a domain">
      <RefusalAlert message={refusal.message} />
      <Field name="domain" label="Domain" value={name} error={refusal.fields.domain} required onInput={setName} />
      <button type="submit" disabled={busy}>
        Add domain
      </button>
    </form>
  );
}

const STATUS_TEXT: Record<NonNullable<DnsRecord['status']>, string> = {
  found: 'found',
  missing: 'missing',
  wrong_value: 'wrong value',
  lookup_failed: 'lookup failed (DNS did not answer)',
};

function DomainCard({
  projectId,
  domain,
  onChecked,
}: {
  projectId: string;
  domain: Domain;
  onChecked: (d: Domain) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [checks, setChecks] = useState(0);
  const verify = async () => {
    setBusy(true);
    setFailure(null);
    try {
      onChecked(await api(projectId).request('get', '/domains/{id}/verify', { path: { id: domain.id } }));
      setChecks((n) => n + 1);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const headingId = `domain-${domain.id}`;
  return (
    <section class="card" aria-labelledby={headingId} data-domain={domain.domain} data-checks={checks}>
      <h2 id={headingId}>
        {domain.domain}{' '}
        <span class={`badge ${domain.status}`} data-status={domain.status}>
          {domain.status}
        </span>
      </h2>
      <p class="muted">
        {domain.lastCheckedAt ? `Last checked ${new Date(domain.lastCheckedAt).toLocaleString()}.` : 'Not checked yet.'}{' '}
        Publish these TXT records at your DNS provider, then verify. The first two are required.
      </p>
      <table>
        <caption class="sr-only">DNS records of {domain.domain}</caption>
        <thead>
          <tr>
            <th scope="col">Purpose</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">Diagnosis</th>
          </tr>
        </thead>
        <tbody>
          {domain.records.map((r) => (
            <tr key={r.purpose} data-purpose={r.purpose}>
              <td>
                {r.type} {r.purpose}
                {r.required ? '' : ' (optional)'}
              </td>
              <td>
                <code data-field="name">{r.name}</code>{' '}
                <CopyButton text={r.name} label={`Copy the ${r.purpose} record's name`} />
              </td>
              <td>
                <code data-field="value" class="long">
                  {r.value}
                </code>{' '}
                <CopyButton text={r.value} label={`Copy the ${r.purpose} record's value`} />
              </td>
              <td data-field="status">
                {r.status ? STATUS_TEXT[r.status] : 'not checked'}
                {r.problem && <p class="field-error">{r.problem}</p>}
                {r.status === 'wrong_value' && r.found && r.found.length > 0 && (
                  <p class="muted">
                    Found: <code>{r.found.join(' | ')}</code>
                  </p>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {failure !== null && <ErrorNote error={failure} retry={() => void verify()} />}
      <button type="button" onClick={() => void verify()} disabled={busy}>
        {busy ? 'Checking…' : `Verify ${domain.domain} now`}
      </button>
    </section>
  );
}
