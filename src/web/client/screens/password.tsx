import { useState } from 'preact/hooks';
import { api, errorText } from '../api.ts';
import type { Me } from '../session.ts';
import { signIn } from '../session.ts';
import { ErrorMessage, Notice } from '../ui.tsx';

/**
 * The signed-in user changes its own password (`PUT /rest/api/2/myself/password`). The change ends every session
 * of the user, this one too, so the screen signs in again with the new password at once.
 */
export function PasswordScreen({ me }: { me: Me }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(false);
    if (next !== repeat) {
      setError('The new password and its repetition differ. Type the same password twice.');
      return;
    }
    try {
      await api('PUT', '/rest/api/2/myself/password', { currentPassword: current, password: next });
      await signIn(me.name, next);
      setCurrent('');
      setNext('');
      setRepeat('');
      setError(undefined);
      setDone(true);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section aria-labelledby="password-title">
      <h1 id="password-title">Change my password</h1>
      <form class="card grid-form narrow" onSubmit={submit} aria-labelledby="password-title">
        <label>
          Current password
          <input data-testid="password-current" type="password" required autocomplete="current-password" value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
        </label>
        <label>
          New password
          <input data-testid="password-new" type="password" required autocomplete="new-password" value={next} onInput={(e) => setNext(e.currentTarget.value)} />
        </label>
        <label>
          New password again
          <input data-testid="password-repeat" type="password" required autocomplete="new-password" value={repeat} onInput={(e) => setRepeat(e.currentTarget.value)} />
        </label>
        <div class="form-end">
          <button type="submit" class="primary" data-testid="password-submit">
            Change password
          </button>
        </div>
        <ErrorMessage error={error} />
      </form>
      {done && <Notice>Your password is changed. Your other sessions and scripts using the old password have been signed out; tokens keep working.</Notice>}
    </section>
  );
}
