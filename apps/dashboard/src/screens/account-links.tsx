import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, fieldErrors, messageOf } from '../api.js';
import { useSession } from '../session.js';
import { ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';

/**
 * The pages the account emails link to (`/app/reset-password`, `/app/verify-email`,
 * `/app/accept-invitation`, each with `?token=`) and the password reset request.
 */

/** Asks for a reset email: the API answers the same whether or not the address has an account. */
export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      await api().request('post', '/auth/request-password-reset', { body: { email } });
      setSent(true);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title="Reset your password">
      {sent ? (
        <p class="card" role="status">
          If {email} has an account, an email with a link to reset its password is on its way. The link is valid for one
          hour.
        </p>
      ) : (
        <form class="card" onSubmit={(e) => void submit(e)} noValidate>
          <RefusalAlert message={refusal.message} />
          <Field
            name="email"
            label="Email"
            type="email"
            value={email}
            error={refusal.fields.email}
            onInput={setEmail}
            autocomplete="email"
            required
          />
          <button type="submit" disabled={busy}>
            {busy ? 'Sending…' : 'Send the reset link'}
          </button>
          <p>
            <a href="/app/login">Back to log in</a>
          </p>
        </form>
      )}
    </Page>
  );
}

/** The reset link's page: a new password for the token; every session of the account ends. */
export function ResetPassword() {
  const { query } = useLocation();
  const { setUser } = useSession();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const refusal = useRefusal('Please correct the field below.');
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      await api().request('post', '/auth/reset-password', { body: { token: query.token ?? '', password } });
      setUser(null); // the reset ended every session, this browser's too
      setDone(true);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title="Choose a new password">
      {done ? (
        <p class="card" role="status">
          Your password is changed. <a href="/app/login">Log in</a> with it.
        </p>
      ) : (
        <form class="card" onSubmit={(e) => void submit(e)} noValidate>
          <RefusalAlert message={refusal.fields.token ?? refusal.message}>
            {' '}
            {!refusal.fields.password && <a href="/app/forgot-password">Ask for a new link</a>}
          </RefusalAlert>
          <Field
            name="password"
            label="New password"
            type="password"
            value={password}
            error={refusal.fields.password}
            onInput={setPassword}
            autocomplete="new-password"
            required
          />
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Set the new password'}
          </button>
        </form>
      )}
    </Page>
  );
}

/** The verification link's page: verifies on opening, then says so (or why not). */
export function VerifyEmail() {
  const { query } = useLocation();
  const { user } = useSession();
  const verified = useLoad(
    () => api().request('post', '/auth/verify-email', { body: { token: query.token ?? '' } }),
    [query.token],
  );
  return (
    <Page title="Verify your email">
      {verified.state === 'loading' ? (
        <Loading what="the verification" />
      ) : verified.state === 'error' ? (
        <ErrorNote error={verified.error} />
      ) : (
        <p class="card" role="status">
          {verified.data.email} is verified.{' '}
          {user ? <a href="/app/projects">Go to your projects</a> : <a href="/app/login">Log in</a>}
        </p>
      )}
    </Page>
  );
}

/**
 * The invitation link's page. Signed in: accept it (the account must be the invited, verified
 * address) and open the project. Signed out: log in first (and come back), or sign up with the
 * invitation (the account is created verified and joins the project).
 */
export function AcceptInvitation() {
  const { query, route } = useLocation();
  const { user, setUser } = useSession();
  const token = query.token ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const refusal = useRefusal('Please correct the fields below.');
  const here = `/app/accept-invitation?token=${encodeURIComponent(token)}`;

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const accepted = await api().request('post', '/users/@me/invitations/accept', { body: { token } });
      route(`/app/p/${accepted.projectId}/contacts`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const signUp = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const created = await api().request('post', '/auth/signup', {
        body: { email, password, invitationToken: token },
      });
      setUser({ id: created.id, email: created.email, name: created.name });
      route('/app/projects');
    } catch (err) {
      refusal.show(err, fieldErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title="Accept the invitation">
      {user ? (
        <div class="card">
          <p>You are signed in as {user.email}. Accept the invitation to join its project.</p>
          {error !== null && (
            <p class="error" role="alert">
              {messageOf(error)}
            </p>
          )}
          <button type="button" disabled={busy} onClick={() => void accept()}>
            {busy ? 'Accepting…' : 'Accept the invitation'}
          </button>
        </div>
      ) : (
        <form class="card" onSubmit={(e) => void signUp(e)} noValidate>
          <p>
            Already have an account? <a href={`/app/login?next=${encodeURIComponent(here)}`}>Log in to accept</a>.
            Otherwise create one with the invited address:
          </p>
          <RefusalAlert message={refusal.message} />
          <Field
            name="email"
            label="Email"
            type="email"
            value={email}
            error={refusal.fields.email}
            onInput={setEmail}
            autocomplete="email"
            required
          />
          <Field
            name="password"
            label="Password"
            type="password"
            value={password}
            error={refusal.fields.password}
            onInput={setPassword}
            autocomplete="new-password"
            required
          />
          <button type="submit" disabled={busy}>
            Create account and join
          </button>
        </form>
      )}
    </Page>
  );
}
