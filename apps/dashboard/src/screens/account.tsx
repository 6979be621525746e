import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, fieldErrors } from '../api.js';
import { useSession } from '../session.js';
import { Field, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';

/** What the login page says for the `oauth_error` an OAuth login came back with (ADR 0029). */
const OAUTH_ERRORS: Record<string, string> = {
  state: 'That sign-in link was not started in this browser, or it expired. Please try again.',
  denied: 'You did not allow Herald to use your account there. Nothing was changed.',
  unverified: 'That provider has not verified your email address. Verify it there, or sign up with a password.',
  no_email: 'That provider did not share an email address with Herald.',
  signups_disabled: 'Sign-ups are disabled on this Herald: ask an administrator for an account.',
  provider: 'The sign-in provider could not be reached or refused the request. Please try again.',
};

const PROVIDER_NAMES: Record<string, string> = { github: 'GitHub', google: 'Google' };

/** "Continue with …" for each configured provider: a full navigation to the gateway's OAuth route. */
function OAuthButtons() {
  const config = useLoad(() => api().request('get', '/auth/oauth-config'), []);
  if (config.state !== 'ready' || config.data.providers.length === 0) return null;
  return (
    <div class="oauth">
      {config.data.providers.map((p) => (
        <button key={p.id} type="button" onClick={() => location.assign(`/auth/oauth/${encodeURIComponent(p.id)}`)}>
          Continue with {PROVIDER_NAMES[p.id] ?? p.id}
        </button>
      ))}
    </div>
  );
}

/** A same-site dashboard path to go to after logging in (`?next=`), else the projects screen. */
const nextPath = (next: string | undefined) =>
  next && next.startsWith('/app/') && !next.startsWith('//') ? next : '/app/projects';

type Mode = 'login' | 'signup';

/** Sign up or log in: the API's field errors under their fields, any other refusal (a wrong password) above the form. */
function AccountForm({ mode }: { mode: Mode }) {
  const { setUser } = useSession();
  const { route, query } = useLocation();
  const oauthError = query.oauth_error ? (OAUTH_ERRORS[query.oauth_error] ?? OAUTH_ERRORS.provider) : null;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal('Please correct the fields below.');

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const user =
        mode === 'login'
          ? await api().request('post', '/auth/login', { body: { email, password } })
          : await api().request('post', '/auth/signup', { body: { email, password, ...(name ? { name } : {}) } });
      setUser({ id: user.id, email: user.email, name: user.name });
      route(nextPath(query.next));
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={mode === 'login' ? 'Log in' : 'Sign up'}>
      <form class="card" onSubmit={(e) => void submit(e)} noValidate>
        <RefusalAlert message={refusal.message ?? oauthError} />
        {mode === 'signup' && (
          <Field
            name="name"
            label="Name (optional)"
            value={name}
            error={refusal.fields.name}
            onInput={setName}
            autocomplete="name"
          />
        )}
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
          autocomplete={mode === 'login' ? 'current-password' : 'new-password'}
          required
        />
        <button type="submit" disabled={busy}>
          {mode === 'login' ? 'Log in' : 'Create account'}
        </button>
        <OAuthButtons />
        <p>
          {mode === 'login' ? (
            <>
              <a href="/app/forgot-password">Forgot your password?</a>
              <br />
              <a href="/app/signup">No account yet? Sign up</a>
            </>
          ) : (
            <a href="/app/login">Already have an account? Log in</a>
          )}
        </p>
      </form>
    </Page>
  );
}

export const LogIn = () => <AccountForm mode="login" />;
export const SignUp = () => <AccountForm mode="signup" />;

/** Ends the session (GET /auth/logout clears the cookie) and goes back to the login page. */
export function LogOutButton() {
  const { setUser } = useSession();
  const { route } = useLocation();
  const [busy, setBusy] = useState(false);
  const logOut = async () => {
    setBusy(true);
    try {
      await api().request('get', '/auth/logout');
    } finally {
      setBusy(false);
      setUser(null);
      route('/app/login');
    }
  };
  return (
    <button type="button" class="link" disabled={busy} onClick={() => void logOut()}>
      Log out
    </button>
  );
}
