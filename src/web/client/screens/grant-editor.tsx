import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, FE, qs } from '../api.ts';
import { ErrorMessage } from '../ui.tsx';

export interface GrantLists {
  userlist: string[];
  grouplist: string[];
}

type Scope = { type: 'GLOBAL' } | { type: 'CONTEXT'; contextId: number };

/**
 * The users and groups granted on a field (globally or on one context): each removable with one click,
 * new ones added through A4 with suggestions from the user search or the group picker.
 */
export function GrantEditor({ fieldId, scope, initial, label }: { fieldId: string; scope: Scope; initial: GrantLists; label: string }) {
  const [lists, setLists] = useState(initial);
  const [kind, setKind] = useState<'user' | 'group'>('user');
  const [name, setName] = useState('');
  const [suggestions, setSuggestions] = useState<{ value: string; label: string }[]>([]);
  const [error, setError] = useState<string>();
  const listId = useRef(`picker-${Math.random().toString(36).slice(2)}`).current;

  useEffect(() => {
    const q = name.trim();
    if (q === '') return setSuggestions([]);
    let live = true;
    const timer = setTimeout(() => {
      const request =
        kind === 'user'
          ? api<{ name: string; displayName: string }[]>('GET', `/rest/api/2/user/search${qs({ username: q, maxResults: 10 })}`).then((us) =>
              us.map((u) => ({ value: u.name, label: u.displayName })),
            )
          : api<{ groups: { name: string }[] }>('GET', `/rest/api/2/groups/picker${qs({ query: q })}`).then((r) => r.groups.map((g) => ({ value: g.name, label: g.name })));
      request.then((s) => live && setSuggestions(s), () => undefined);
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [name, kind]);

  const patch = async (action: 'GRANT' | 'REVOKE', k: 'user' | 'group', who: string) => {
    try {
      const body = { [k]: who, action, ...scope };
      const result = await api<GrantLists>('PATCH', `${FE}/admin/customfields/${encodeURIComponent(fieldId)}`, body);
      setLists({ userlist: result.userlist, grouplist: result.grouplist });
      setError(undefined);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };

  const add = async (e: Event) => {
    e.preventDefault();
    if (await patch('GRANT', kind, name.trim())) setName('');
  };

  const rows = [...lists.userlist.map((n) => ({ k: 'user' as const, n })), ...lists.grouplist.map((n) => ({ k: 'group' as const, n }))];
  return (
    <div class="grants" role="group" aria-label={label}>
      {rows.length === 0 ? (
        <p class="muted">Nobody is granted here.</p>
      ) : (
        <ul class="chips">
          {rows.map((r) => (
            <li key={`${r.k}:${r.n}`} data-testid="grant-row" data-kind={r.k} data-name={r.n} class="chip">
              <span>
                {r.k === 'group' ? 'group ' : ''}
                <strong>{r.n}</strong>
              </span>
              <button type="button" class="small" aria-label={`Remove ${r.k} ${r.n}`} onClick={() => void patch('REVOKE', r.k, r.n)}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="grant-form" onSubmit={add}>
        <select aria-label="User or group" value={kind} onChange={(e) => setKind(e.currentTarget.value as 'user' | 'group')}>
          <option value="user">User</option>
          <option value="group">Group</option>
        </select>
        <input
          data-testid="grant-user-input"
          list={listId}
          aria-label={kind === 'user' ? 'User name' : 'Group name'}
          placeholder={kind === 'user' ? 'Search users' : 'Search groups'}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          autocomplete="off"
          required
        />
        <datalist id={listId}>
          {suggestions.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </datalist>
        <button type="submit" data-testid="grant-add-submit">
          Grant
        </button>
      </form>
      <ErrorMessage error={error} />
    </div>
  );
}
