import { useState } from 'preact/hooks';
import { errorText } from '../api.ts';
import { signIn } from '../session.ts';
import { ErrorMessage } from '../ui.tsx';

/** Username and password; the lockout rules and messages are the server's (as for Basic). */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(username, password);
      onSignedIn();
    } catch (err) {
      setError(errorText(err));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <form class="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to addon-pair</h1>
        <label>
          Username
          <input data-testid="login-username" name="username" autocomplete="username" required autofocus value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input data-testid="login-password" name="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <ErrorMessage error={error} />
        <button data-testid="login-submit" type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
