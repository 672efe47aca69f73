import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, errorText, qs } from '../api.ts';
import { askConfirm } from '../confirm.tsx';
import { UserGroups } from './user-groups.tsx';
import { ADMIN_TOKENS, count, USER, USERS, type HostPage, type ListedUser, type TokenRecord, type UserRecord } from '../directory.ts';
import { go, href } from '../router.ts';
import type { Me } from '../session.ts';
import { ErrorMessage, InfoMessage, Loading, Notice, WarningMessage } from '../ui.tsx';
import { UserState } from './users.tsx';
import { TokenTable } from './token-table.tsx';

interface Loaded {
  user: UserRecord;
  state: ListedUser | undefined;
  /** Absent when the server refuses them: a system administrator's tokens, to an administrator. */
  tokens: TokenRecord[] | undefined;
}

const SYSADMINS = 'system-administrators';

const q = (name: string) => qs({ username: name });

/**
 * One user for administrators: display name, e-mail and active flag; unlock; a new password; its tokens with
 * their last use (revoke); delete, after saying what goes with the user.
 */
export function UserScreen({ name, me }: { name: string; me: Me }) {
  const [data, setData] = useState<Loaded>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [version, setVersion] = useState(0);
  const reload = (message?: string) => (setNotice(message), setError(undefined), setVersion((v) => v + 1));

  useEffect(() => {
    Promise.all([
      api<UserRecord>('GET', `${USER}${q(name)}`),
      api<HostPage<ListedUser>>('GET', `${USERS}${qs({ query: name, maxResults: 1000 })}`),
      api<TokenRecord[]>('GET', `${ADMIN_TOKENS}${q(name)}`).catch((e: unknown) => (e instanceof ApiError && e.status === 403 ? undefined : Promise.reject(e))),
    ]).then(
      ([user, page, tokens]) => setData({ user, state: page.values.find((u) => u.name.toLowerCase() === name.toLowerCase()), tokens }),
      (e) => setError(errorText(e)),
    );
  }, [name, version]);

  if (!data) return error ? <ErrorMessage error={error} /> : <Loading />;
  const { user, state, tokens } = data;
  const groups = user.groups?.items.map((g) => g.name) ?? [];
  // Only a system administrator changes a system administrator (the server answers 403 to anyone else).
  const guarded = groups.includes(SYSADMINS) && !me.groups.includes(SYSADMINS);

  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      reload(done);
    } catch (e) {
      setNotice(undefined);
      setError(errorText(e));
    }
  };

  const remove = async () => {
    const ok = await askConfirm({
      title: `Delete the user ${user.displayName}?`,
      message:
        `The user ${user.name} is deleted with ${count(tokens?.length ?? 0, 'access token')}, its membership in ${count(groups.length, 'group')}` +
        `${groups.length ? ` (${groups.join(', ')})` : ''}, its sessions and its field-editor grants. ` +
        'The event log keeps its past changes. A new user of the same name inherits nothing. This cannot be undone; deactivating keeps the user.',
      confirmLabel: 'Delete user',
    });
    if (!ok) return;
    try {
      await api('DELETE', `${USER}${q(user.name)}`);
      go('users');
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <section aria-labelledby="user-title">
      <p class="crumbs">
        <a href={href('users')}>Users</a> ›
      </p>
      <h1 id="user-title">
        {user.displayName} <span class="muted">({user.name})</span>
      </h1>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error} />
      {state && (
        <div class="card state-line">
          <UserState user={state} />
          {state.failedLogins > 0 && <span class="muted">{count(state.failedLogins, 'failed login')} since the last successful one</span>}
          {state.locked && (
            <button type="button" class="small" data-testid="user-unlock" onClick={() => void act(() => api('DELETE', `${USER}/lockout${q(user.name)}`), `${user.name} is unlocked and may log in again.`)}>
              Unlock
            </button>
          )}
        </div>
      )}
      {guarded && <InfoMessage>{user.name} is a system administrator: only a system administrator can change it, its password or its tokens.</InfoMessage>}
      {!guarded && <EditUser key={`${version}`} user={user} self={user.name.toLowerCase() === me.name.toLowerCase()} onSaved={(u) => reload(`Saved. ${u.active ? '' : `${u.name} cannot log in while deactivated.`}`)} onError={setError} />}
      {!guarded && <ResetPassword name={user.name} onDone={() => reload(`The password of ${user.name} is changed; its sessions and logins with the old one have ended.`)} onError={setError} />}
      <UserGroups user={user.name} groups={groups} done={(m) => reload(m)} failed={(e) => (setNotice(undefined), setError(errorText(e)))} />
      {tokens && (
        <div class="card" data-testid="user-tokens">
          <h2>Access tokens</h2>
          <TokenTable tokens={tokens} owner={user.name} onChanged={() => reload('The token is revoked; it stopped working at once.')} onError={setError} />
        </div>
      )}
      {!guarded && (
        <div class="card danger-zone">
          <h2>Delete</h2>
          <p class="muted">Deactivating (above) keeps the user and its history; deleting removes it.</p>
          <button type="button" class="danger" data-testid="user-delete" onClick={() => void remove()}>
            Delete user…
          </button>
        </div>
      )}
    </section>
  );
}

function EditUser({ user, self, onSaved, onError }: { user: UserRecord; self: boolean; onSaved: (u: UserRecord) => void; onError: (m: string) => void }) {
  const [displayName, setDisplayName] = useState(user.displayName);
  const [email, setEmail] = useState(user.emailAddress);
  const [active, setActive] = useState(user.active);
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      onSaved(await api<UserRecord>('PUT', `${USER}${q(user.name)}`, { displayName: displayName.trim(), emailAddress: email.trim(), active }));
    } catch (err) {
      onError(errorText(err));
    }
  };
  return (
    <form class="card grid-form" onSubmit={save} aria-labelledby="user-edit-title">
      <h2 id="user-edit-title">Details</h2>
      <label>
        Display name
        <input data-testid="user-display-name" required maxLength={255} value={displayName} onInput={(e) => setDisplayName(e.currentTarget.value)} />
      </label>
      <label>
        E-mail
        <input data-testid="user-email" type="email" maxLength={255} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <label class="check">
        <input type="checkbox" data-testid="user-active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        Active (a deactivated user cannot log in by any means, and its sessions end)
      </label>
      {self && !active && <WarningMessage>You are deactivating yourself: you will be signed out.</WarningMessage>}
      <div class="form-end">
        <button type="submit" class="primary" data-testid="user-save">
          Save
        </button>
      </div>
    </form>
  );
}

function ResetPassword({ name, onDone, onError }: { name: string; onDone: () => void; onError: (m: string) => void }) {
  const [password, setPassword] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await api('PUT', `${USER}/password${q(name)}`, { password });
      setPassword('');
      onDone();
    } catch (err) {
      onError(errorText(err));
    }
  };
  return (
    <form class="card inline-form" onSubmit={submit} aria-labelledby="user-reset-title">
      <h2 id="user-reset-title" class="full">
        New password
      </h2>
      <label>
        New password for {name}
        <input data-testid="user-new-password" type="password" required autocomplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      <button type="submit" data-testid="user-reset-password">
        Set password
      </button>
    </form>
  );
}
