import { useState } from 'preact/hooks';
import { api, errorText, qs } from '../api.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import { USER, USERS, type HostPage, type ListedUser, type UserRecord } from '../directory.ts';
import { href } from '../router.ts';
import { Time } from '../time.tsx';
import { ErrorMessage, FilterField, ListTable, Loading, InfoMessage, Notice, Pager } from '../ui.tsx';

const PAGE_SIZE = 25;

/** A user's state in words: active, deactivated, locked (until when). */
export function UserState({ user }: { user: ListedUser }) {
  if (!user.active) return <span class="badge off">Deactivated</span>;
  if (user.locked)
    return (
      <span class="badge warn">
        Locked{user.lockedUntil ? <> until <Time value={user.lockedUntil} /></> : ' until unlocked'}
      </span>
    );
  return <span class="badge">Active</span>;
}

/** The users (paged, filtered by name, display name or e-mail) and the form that creates one. */
export function UsersScreen() {
  const [filter, setFilter] = useState('');
  const [startAt, setStartAt] = useState(0);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string>();
  const { data: page, error } = useDebouncedGet<HostPage<ListedUser>>(`${USERS}${qs({ query: filter, startAt, maxResults: PAGE_SIZE })}`, version);

  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <CreateUser onCreated={(u) => (setNotice(`The user ${u.displayName} (${u.name}) was created.`), setVersion((v) => v + 1))} />
      {notice && <Notice>{notice}</Notice>}
      <div class="toolbar">
        <FilterField value={filter} onInput={(v) => (setFilter(v), setStartAt(0))} />
      </div>
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {page && page.total === 0 && <InfoMessage>No user matches.</InfoMessage>}
      {page && page.values.length > 0 && (
        <>
          <ListTable class="list" columns={['User', 'Display name', 'E-mail', 'State']} wide="E-mail">
            {page.values.map((u) => (
              <tr key={u.name} data-testid="user-row" data-user-name={u.name}>
                <td>
                  <a href={href('users', u.name)}>{u.name}</a>
                </td>
                <td>{u.displayName}</td>
                <td class="wide">{u.emailAddress || <span class="muted">—</span>}</td>
                <td>
                  <UserState user={u} />
                </td>
              </tr>
            ))}
          </ListTable>
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
    </section>
  );
}

function CreateUser({ onCreated }: { onCreated: (u: UserRecord) => void }) {
  const empty = { name: '', displayName: '', emailAddress: '', password: '' };
  const [form, setForm] = useState(empty);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const bind = (key: keyof typeof empty) => ({ value: form[key], onInput: (e: Event) => setForm({ ...form, [key]: (e.currentTarget as HTMLInputElement).value }) });

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body: Record<string, string> = { name: form.name.trim(), password: form.password };
      if (form.displayName.trim()) body.displayName = form.displayName.trim();
      if (form.emailAddress.trim()) body.emailAddress = form.emailAddress.trim();
      const created = await api<UserRecord>('POST', USER, body);
      setForm(empty);
      setError(undefined);
      onCreated(created);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card grid-form" data-testid="user-create" onSubmit={submit} aria-labelledby="user-create-title">
      <h2 id="user-create-title">New user</h2>
      <label>
        User name (for logging in)
        <input data-testid="user-create-name" required maxLength={255} autocomplete="off" {...bind('name')} />
      </label>
      <label>
        Display name
        <input data-testid="user-create-display-name" maxLength={255} autocomplete="off" {...bind('displayName')} />
      </label>
      <label>
        E-mail
        <input data-testid="user-create-email" type="email" maxLength={255} autocomplete="off" {...bind('emailAddress')} />
      </label>
      <label>
        Password
        <input data-testid="user-create-password" type="password" required autocomplete="new-password" {...bind('password')} />
      </label>
      <div class="form-end">
        <button type="submit" class="primary" data-testid="user-create-submit" disabled={busy}>
          Create user
        </button>
      </div>
      <ErrorMessage error={error} />
    </form>
  );
}
