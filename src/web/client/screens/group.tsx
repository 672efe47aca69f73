import { useState } from 'preact/hooks';
import { api, errorText, qs } from '../api.ts';
import { askConfirm } from '../confirm.tsx';
import { useDebouncedGet } from '../debounced-get.ts';
import { count, type HostPage, type UserRecord } from '../directory.ts';
import { go, href } from '../router.ts';
import { ErrorMessage, ListTable, Loading, InfoMessage, Notice, Pager } from '../ui.tsx';

const PAGE_SIZE = 25;
const BUILT_IN = ['users', 'administrators', 'system-administrators'];

/** One group: its members (paged), adding and removing members, and deleting the group (not a built-in one). */
export function GroupScreen({ name }: { name: string }) {
  const [startAt, setStartAt] = useState(0);
  const [version, setVersion] = useState(0);
  const [member, setMember] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const { data: page, error: loadError } = useDebouncedGet<HostPage<UserRecord>>(`/rest/api/2/group/member${qs({ groupname: name, startAt, maxResults: PAGE_SIZE })}`, version);
  const builtIn = BUILT_IN.includes(name.toLowerCase());
  const done = (message: string) => (setError(undefined), setNotice(message), setVersion((v) => v + 1));

  const add = async (e: Event) => {
    e.preventDefault();
    try {
      await api('POST', `/rest/api/2/group/user${qs({ groupname: name })}`, { name: member.trim() });
      done(`${member.trim()} is now a member of ${name}.`);
      setMember('');
    } catch (err) {
      setError(errorText(err));
    }
  };

  const remove = async (u: UserRecord) => {
    const ok = await askConfirm({
      title: `Remove ${u.displayName} from ${name}?`,
      message: `${u.name} leaves the group ${name} and loses at once every right that comes through it (field-editor grants of the group included). The user itself stays.`,
      confirmLabel: 'Remove member',
    });
    if (!ok) return;
    try {
      await api('DELETE', `/rest/api/2/group/user${qs({ groupname: name, username: u.name })}`);
      done(`${u.name} is no longer a member of ${name}.`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const removeGroup = async () => {
    const ok = await askConfirm({
      title: `Delete the group ${name}?`,
      message: `The group ${name} is deleted with its ${count(page?.total ?? 0, 'membership')} and its field-editor grants. Its members stay as users. This cannot be undone.`,
      confirmLabel: 'Delete group',
    });
    if (!ok) return;
    try {
      await api('DELETE', `/rest/api/2/group${qs({ groupname: name })}`);
      go('groups');
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section aria-labelledby="group-title">
      <p class="crumbs">
        <a href={href('groups')}>Groups</a> ›
      </p>
      <h1 id="group-title">{name}</h1>
      <form class="card inline-form" data-testid="group-add-member" onSubmit={add} aria-label={`Add a member to ${name}`}>
        <label>
          Add a member (user name)
          <input data-testid="group-member-name" required value={member} onInput={(e) => setMember(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" data-testid="group-member-submit">
          Add member
        </button>
      </form>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error ?? loadError} />
      {!page && !loadError && <Loading />}
      {page && page.total === 0 && <InfoMessage>The group has no members.</InfoMessage>}
      {page && page.values.length > 0 && (
        <>
          <ListTable class="list" columns={['Member', 'Display name', 'Actions']}>
            {page.values.map((u) => (
              <tr key={u.name} data-testid="member-row" data-user-name={u.name}>
                <td>
                  <a href={href('users', u.name)}>{u.name}</a>
                  {!u.active && <span class="badge off">Deactivated</span>}
                </td>
                <td>{u.displayName}</td>
                <td>
                  <button type="button" class="small danger" data-testid="group-member-remove" onClick={() => void remove(u)} aria-label={`Remove ${u.name} from ${name}`}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </ListTable>
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
      {!builtIn && (
        <div class="card danger-zone">
          <button type="button" class="danger" data-testid="group-delete" onClick={() => void removeGroup()}>
            Delete group…
          </button>
        </div>
      )}
    </section>
  );
}
