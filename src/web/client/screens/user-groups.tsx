import { useEffect, useState } from 'preact/hooks';
import { api, qs } from '../api.ts';
import { askConfirm } from '../confirm.tsx';
import { href } from '../router.ts';

const MEMBERS = '/rest/api/2/group/user';

/**
 * A user's groups on its own page: each removed after a confirmation, and a group added by name with
 * suggestions from the group picker (the groups the user is not in yet). `done` reports the result in words.
 */
export function UserGroups({ user, groups, done, failed }: { user: string; groups: string[]; done: (message: string) => void; failed: (e: unknown) => void }) {
  const [name, setName] = useState('');
  const [suggestions, setSuggestions] = useState<string[]>([]);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api<{ groups: { name: string }[] }>('GET', `/rest/api/2/groups/picker${qs({ query: name.trim(), maxResults: 20 })}`).then(
        (r) => live && setSuggestions(r.groups.map((g) => g.name).filter((g) => !groups.includes(g))),
        () => undefined,
      );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [name, groups.join('\n')]);

  const add = async (e: Event) => {
    e.preventDefault();
    const group = name.trim();
    try {
      await api('POST', `${MEMBERS}${qs({ groupname: group })}`, { name: user });
      setName('');
      done(`${user} is now a member of ${group}.`);
    } catch (err) {
      failed(err);
    }
  };

  const remove = async (group: string) => {
    const ok = await askConfirm({
      title: `Remove ${user} from ${group}?`,
      message: `${user} loses what the group ${group} gives: its field-editor grants and any rights given to the group. The user itself stays.`,
      confirmLabel: 'Remove from group',
    });
    if (!ok) return;
    try {
      await api('DELETE', `${MEMBERS}${qs({ groupname: group, username: user })}`);
      done(`${user} is no longer a member of ${group}.`);
    } catch (err) {
      failed(err);
    }
  };

  return (
    <div class="card" data-testid="user-groups">
      <h2>Groups</h2>
      {groups.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="chips">
          {groups.map((g) => (
            <li key={g} class="chip" data-testid="user-group">
              <a href={href('groups', g)}>{g}</a>
              <button type="button" class="small icon" data-testid="user-group-remove" aria-label={`Remove from ${g}`} onClick={() => void remove(g)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={(e) => void add(e)}>
        <label class="inline">
          Add to the group
          <input data-testid="user-group-name" list="user-group-suggestions" required value={name} autoComplete="off" onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <datalist id="user-group-suggestions">
          {suggestions.map((g) => (
            <option key={g} value={g} />
          ))}
        </datalist>
        <button type="submit" data-testid="user-group-add">
          Add
        </button>
      </form>
    </div>
  );
}
