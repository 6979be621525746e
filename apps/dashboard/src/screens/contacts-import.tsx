import { useState } from 'preact/hooks';
import { api, fieldErrors, isStatus } from '../api.js';
import { ErrorNote, Page, RefusalAlert, usePoll, useRefusal } from '../ui.js';
import { NotFound } from './projects.js';

const POLL_MS = 500;

/**
 * A CSV import: the file uploaded (`POST /contacts/import`), then the job followed
 * (`GET /contacts/import/:jobId`) with a progress bar to done, its counts and the per-row errors.
 */
export function ContactsImport({ projectId }: { projectId: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    refusal.clear();
    setJobId(null);
    try {
      const started = await api(projectId).contacts.import(file, { filename: file.name });
      setJobId(started.jobId);
    } catch (error) {
      if (isStatus(error, 413)) refusal.show(error, { file: 'The file is larger than 5 MB.' });
      else refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const fileError = refusal.fields.file;
  return (
    <Page title="Import contacts">
      <p class="muted">
        A UTF-8 CSV file of at most 5 MB with an <code>email</code> column; every other column becomes a data field.
        Rows matching an existing contact update its data.
      </p>
      <form class="inline-form" onSubmit={(e) => void submit(e)} aria-label="Import a CSV file">
        <RefusalAlert message={refusal.message} />
        <div class="field">
          <label for="field-file">CSV file</label>
          <input
            id="field-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-invalid={fileError ? 'true' : undefined}
            aria-describedby={fileError ? 'field-file-error' : undefined}
            onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
          />
          {fileError && (
            <p class="field-error" id="field-file-error">
              {fileError}
            </p>
          )}
        </div>
        <button type="submit" disabled={busy || !file}>
          {busy ? 'Uploading…' : 'Import'}
        </button>
      </form>
      {jobId && <ImportProgress key={jobId} projectId={projectId} jobId={jobId} />}
      <p>
        <a href={`/app/p/${projectId}/contacts`}>Back to the contacts</a>
      </p>
    </Page>
  );
}

/** Follows the job until it is done; a failed poll shows its error with a retry. */
function ImportProgress({ projectId, jobId }: { projectId: string; jobId: string }) {
  const poll = usePoll(
    () => api(projectId).contacts.importStatus(jobId),
    (answer) => answer.status !== 'queued',
    POLL_MS,
    [projectId, jobId],
  );
  const job = poll.data;
  if (poll.failure !== null)
    return isStatus(poll.failure, 404) ? <NotFound /> : <ErrorNote error={poll.failure} retry={poll.reload} />;
  const percent = job?.status === 'completed' ? 100 : (job?.progress.percent ?? 0);
  return (
    <section class="card" aria-labelledby="import-heading" data-import-status={job?.status ?? 'starting'}>
      <h2 id="import-heading">
        Import {job?.status === 'completed' ? 'done' : job?.status === 'failed' ? 'failed' : 'in progress'}
      </h2>
      <progress id="import-progress" max={100} value={percent} aria-label="Import progress">
        {percent}%
      </progress>{' '}
      <span role="status">
        {job ? `${job.progress.processedRows} of ${job.totalRows} rows (${percent}%)` : 'Starting…'}
      </span>
      {job?.failure && (
        <p class="error" role="alert">
          {job.failure}
        </p>
      )}
      {job && job.status !== 'queued' && (
        <>
          <dl class="facts">
            <dt>Imported</dt>
            <dd data-count="imported">{job.imported}</dd>
            <dt>Updated</dt>
            <dd data-count="updated">{job.updated}</dd>
            <dt>Skipped</dt>
            <dd data-count="skipped">{job.skipped}</dd>
          </dl>
          {job.errors.length > 0 && (
            <table>
              <caption>Rows not imported</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Email</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {job.errors.map((e) => (
                  <tr key={e.row}>
                    <td>{e.row}</td>
                    <td>{e.email}</td>
                    <td>{e.reason.replace(/_/g, ' ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
