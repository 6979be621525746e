import { useState } from 'preact/hooks';
import type { components } from '@herald/sdk';
import { api, fieldErrors, messageOf } from '../api.js';
import { Empty, ErrorNote, Loading, useLoad } from '../ui.js';

type Member = components['schemas']['MemberView2'];
const PAGE_SIZE = 25;
/** The API's limit of addresses per `POST /segments/:id/members`. */
const MAX_PER_CALL = 1000;

/** The first members a filter matches, as the live count's answer brought them (`preview`). */
export function MembersPreview({ members, total }: { members: Member[] | null; total: number | null }) {
  if (members === null) return null;
  return (
    <section class="preview" aria-labelledby="preview-heading">
      <h3 id="preview-heading">Preview of members</h3>
      {members.length === 0 ? (
        <Empty>No contact matches this filter.</Empty>
      ) : (
        <>
          <ul data-preview>
            {members.map((m) => (
              <li key={m.id}>{m.email}</li>
            ))}
          </ul>
          {total !== null && total > members.length && <p class="muted">and {total - members.length} more</p>}
        </>
      )}
    </section>
  );
}

/**
 * The addresses in a pasted text or a CSV file: the `email` column when the first line names one,
 * else every cell that looks like an address (commas, semicolons, spaces or lines between them).
 */
export function addressesIn(text: string): string[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = (lines[0] ?? '').split(/[,;\t]/).map((h) => h.trim().replace(/^"|"$/g, '').toLowerCase());
  const column = header.indexOf('email');
  const cells =
    column >= 0 ? lines.slice(1).map((l) => l.split(/[,;\t]/)[column] ?? '') : lines.flatMap((l) => l.split(/[\s,;]+/));
  const out = cells.map((c) => c.trim().replace(/^"|"$/g, '')).filter((c) => c.includes('@'));
  return [...new Set(out)];
}

/**
 * A static segment's members: listed in pages (`GET /segments/:id/contacts`), each removable
 * (`DELETE /segments/:id/members`); added by pasting addresses or uploading a CSV file
 * (`POST /segments/:id/members`, contacts created for unknown addresses when asked).
 */
export function StaticMembers({
  projectId,
  segmentId,
  onChange,
}: {
  projectId: string;
  segmentId: string;
  onChange: () => void;
}) {
  const [page, setPage] = useState(1);
  const [round, setRound] = useState(0);
  const members = useLoad(
    () =>
      api(projectId).request('get', '/segments/{id}/contacts', {
        path: { id: segmentId },
        query: { page, pageSize: PAGE_SIZE },
      }),
    [projectId, segmentId, page, round],
  );
  const [pasted, setPasted] = useState('');
  const [createMissing, setCreateMissing] = useState(false);
  const [said, setSaid] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = () => {
    setRound((n) => n + 1);
    onChange();
  };
  const add = async (emails: string[]) => {
    setError(null);
    setSaid('');
    if (emails.length === 0) {
      setError('No email address found.');
      return;
    }
    setBusy(true);
    try {
      const totals = { added: 0, alreadyMembers: 0, created: 0, notFound: 0 };
      for (let i = 0; i < emails.length; i += MAX_PER_CALL) {
        const r = await api(projectId).request('post', '/segments/{id}/members', {
          path: { id: segmentId },
          body: { emails: emails.slice(i, i + MAX_PER_CALL), createMissing },
        });
        for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += r[k];
      }
      setSaid(
        `${totals.added} added, ${totals.alreadyMembers} already members, ${totals.created} contacts created, ${totals.notFound} without a contact`,
      );
      setPasted('');
      changed();
    } catch (e) {
      const byField = Object.entries(fieldErrors(e));
      setError(
        byField.length
          ? byField
              .map(([f, m]) => `${f.replace(/^emails\[(\d+)\]$/, (_, i: string) => emails[Number(i)] ?? f)}: ${m}`)
              .join('; ')
          : messageOf(e),
      );
    } finally {
      setBusy(false);
    }
  };
  const remove = async (email: string) => {
    setError(null);
    try {
      await api(projectId).request('delete', '/segments/{id}/members', {
        path: { id: segmentId },
        body: { emails: [email] },
      });
      changed();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const upload = async (file: File | undefined) => {
    if (file) await add(addressesIn(await file.text()));
  };
  return (
    <section class="card wide" aria-labelledby="static-members-heading">
      <h3 id="static-members-heading">Members</h3>
      <div class="field">
        <label for="paste-members">Paste email addresses</label>
        <textarea
          id="paste-members"
          rows={4}
          value={pasted}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'members-error' : undefined}
          onInput={(e) => setPasted((e.target as HTMLTextAreaElement).value)}
        />
      </div>
      <label>
        <input
          type="checkbox"
          checked={createMissing}
          onChange={(e) => setCreateMissing((e.target as HTMLInputElement).checked)}
        />{' '}
        Create contacts for unknown addresses
      </label>{' '}
      <button type="button" disabled={busy || pasted.trim() === ''} onClick={() => void add(addressesIn(pasted))}>
        {busy ? 'Adding…' : 'Add pasted addresses'}
      </button>
      <div class="field">
        <label for="upload-members">Or upload a CSV file</label>
        <input
          id="upload-members"
          type="file"
          accept=".csv,text/csv,text/plain"
          disabled={busy}
          onChange={(e) => void upload((e.target as HTMLInputElement).files?.[0])}
        />
      </div>
      {error && (
        <p class="field-error" id="members-error" role="alert">
          {error}
        </p>
      )}
      <p role="status">{said}</p>
      {members.state === 'loading' && <Loading what="the members" />}
      {members.state === 'error' && <ErrorNote error={members.error} retry={members.reload} />}
      {members.state === 'ready' &&
        (members.data.data.length === 0 ? (
          <Empty>No member yet: paste or upload their addresses.</Empty>
        ) : (
          <>
            <ul class="members" data-members>
              {members.data.data.map((m) => (
                <li key={m.id} data-member={m.email}>
                  {m.email}{' '}
                  <button type="button" onClick={() => void remove(m.email)}>
                    Remove<span class="sr-only"> {m.email}</span>
                  </button>
                </li>
              ))}
            </ul>
            <nav class="pager" aria-label="Member pages">
              <button type="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
                Previous page
              </button>
              <span class="muted">
                {' '}
                page {members.data.page} of {Math.max(1, members.data.totalPages)} ({members.data.total} members){' '}
              </span>
              <button type="button" disabled={page >= members.data.totalPages} onClick={() => setPage(page + 1)}>
                Next page
              </button>
            </nav>
          </>
        ))}
    </section>
  );
}
