import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, fieldErrors } from '../api.js';
import { useSession } from '../session.js';
import { Field, Page, useRefusal } from '../ui.js';

type Mode = 'login' | 'signup';

/** Sign up or log in: the API's field errors under their fields, any other refusal (a wrong password) above the form. */
function AccountForm({ mode }: { mode: Mode }) {
  const { setUser } = useSession();
  const { route } = useLocation();
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
      route('/app/projects');
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={mode === 'login' ? 'Log in' : 'Sign up'}>
      <form class="card" onSubmit={(e) => void submit(e)} noValidate>
        {refusal.message && (
          <p class="error" role="alert">
            {refusal.message}
          </p>
        )}
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
