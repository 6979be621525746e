import { useEffect, useState } from 'preact/hooks';
import type { Result } from '@herald/sdk';
import { api } from '../api.js';
import { Empty, ErrorNote, Loading } from '../ui.js';

type Page = Result<'recipientsRecipientsPage'>;
type Row = Page['data'][number];
type Status = Row['status'];
const PAGE = 50;

/** What a skip reason means, for whoever reads the ledger (docs/campaigns.md, "The ledger"). */
const REASONS: Record<NonNullable<Row['reason']>, string> = {
  unsubscribed: 'unsubscribed',
  suppressed: 'suppressed (bounced hard or complained)',
  invalid_address: 'invalid address',
  duplicate: 'duplicate address',
  cancelled: 'campaign cancelled',
  billing_limit: 'billing limit reached',
  sending_suspended: 'sending suspended',
};

/**
 * The campaign's delivery ledger (`GET /campaigns/:id/recipients`): one row per recipient with its
 * status and, when skipped or failed, why; in audience order, by cursor pages ("Show more"),
 * filtered by status. `version` reads it again from its first page (the stats moved on).
 */
export function Ledger({ projectId, campaignId, version }: { projectId: string; campaignId: string; version: string }) {
  const [status, setStatus] = useState<Status | ''>('');
  const [rows, setRows] = useState<Row[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [round, setRound] = useState(0);
  const read = (cursor: string | null) =>
    api(projectId).request('get', '/campaigns/{id}/recipients', {
      path: { id: campaignId },
      query: { limit: PAGE, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) },
    });
  useEffect(() => {
    let live = true;
    setFailure(null);
    read(null).then(
      (page) => {
        if (!live) return;
        setRows(page.data);
        setTotal(page.total);
        setNext(page.hasMore ? page.cursor : null);
      },
      (error: unknown) => live && setFailure(error),
    );
    return () => {
      live = false;
    };
  }, [projectId, campaignId, status, version, round]);
  const more = async () => {
    if (!next) return;
    setBusy(true);
    try {
      const page = await read(next);
      setRows((shown) => [...(shown ?? []), ...page.data]);
      setNext(page.hasMore ? page.cursor : null);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card wide" aria-labelledby="ledger-heading">
      <h2 id="ledger-heading">Recipients</h2>
      <div class="field">
        <label for="ledger-status">Status</label>
        <select
          id="ledger-status"
          value={status}
          onChange={(e) => setStatus((e.target as HTMLSelectElement).value as Status | '')}
        >
          <option value="">Every status</option>
          {(['sent', 'skipped', 'failed', 'queued', 'pending'] as const).map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      {failure !== null ? (
        <ErrorNote error={failure} retry={() => setRound((n) => n + 1)} />
      ) : rows === null ? (
        <Loading what="the recipients" />
      ) : rows.length === 0 ? (
        <Empty>
          {status ? `No recipient ${status}.` : 'No recipient yet: the audience is resolved when the campaign starts.'}
        </Empty>
      ) : (
        <>
          <p class="muted" data-ledger-total={total}>
            {rows.length} of {total} recipient(s) shown
          </p>
          <table aria-labelledby="ledger-heading">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Why</th>
                <th scope="col">Sent</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.contactId} data-recipient={r.email} data-status={r.status} data-reason={r.reason ?? ''}>
                  <td>{r.email}</td>
                  <td>
                    <span class={`badge ${r.status}`}>{r.status}</span>
                  </td>
                  <td>{r.reason ? REASONS[r.reason] : (r.error ?? '—')}</td>
                  <td>{r.sentAt ? new Date(r.sentAt).toLocaleString() : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {next && (
            <button type="button" class="secondary" disabled={busy} onClick={() => void more()}>
              {busy ? 'Loading…' : 'Show more'}
            </button>
          )}
        </>
      )}
    </section>
  );
}
