import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, fieldErrors, messageOf } from '../api.js';
import { useSession } from '../session.js';
import { Field, Page } from '../ui.js';

type Mode = 'login' | 'signup';

/** Sign up or log in: the API's field errors under their fields, any other refusal (a wrong password) above the form. */
function AccountForm({ mode }: { mode: Mode }) {
  const { setUser } = useSession();
  const { route } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setFields({});
    setMessage(null);
    try {
      const user =
        mode === 'login'
          ? await api().request('post', '/auth/login', { body: { email, password } })
          : await api().request('post', '/auth/signup', { body: { email, password, ...(name ? { name } : {}) } });
      setUser({ id: user.id, email: user.email, name: user.name });
      route('/app/projects');
    } catch (error) {
      const byField = fieldErrors(error);
      setFields(byField);
      setMessage(Object.keys(byField).length ? 'Please correct the fields below.' : messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={mode === 'login' ? 'Log in' : 'Sign up'}>
      <form class="card" onSubmit={(e) => void submit(e)} noValidate>
        {message && (
          <p class="error" role="alert">
            {message}
          </p>
        )}
        {mode === 'signup' && (
          <Field
            name="name"
            label="Name (optional)"
            value={name}
            error={fields.name}
            onInput={setName}
            autocomplete="name"
          />
        )}
        <Field
          name="email"
          label="Email"
          type="email"
          value={email}
          error={fields.email}
          onInput={setEmail}
          autocomplete="email"
          required
        />
        <Field
          name="password"
          label="Password"
          type="password"
          value={password}
          error={fields.password}
          onInput={setPassword}
          autocomplete={mode === 'login' ? 'current-password' : 'new-password'}
          required
        />
        <button type="submit" disabled={busy}>
          {mode === 'login' ? 'Log in' : 'Create account'}
        </button>
        <p>
          {mode === 'login' ? (
            <a href="/app/signup">No account yet? Sign up</a>
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
