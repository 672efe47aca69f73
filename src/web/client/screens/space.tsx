import { useState } from 'preact/hooks';
import { api, errorText } from '../api.ts';
import { askConfirm } from '../confirm.tsx';
import { useDebouncedGet } from '../debounced-get.ts';
import { href } from '../router.ts';
import { Cell, ErrorMessage, ListTable, Loading, Notice, WarningMessage } from '../ui.tsx';

/** A permission as GET /rest/api/space/{key}/permission answers it. */
interface Permission {
  id: number;
  subject: { type: 'user' | 'group'; identifier: string };
  operation: { key: 'read' | 'create' | 'administer'; target: string };
}

const OPERATIONS = [
  ['read', 'Read the space'],
  ['create', 'Create content'],
  ['administer', 'Administer the space'],
] as const;

const words = (p: Permission) => {
  const label = OPERATIONS.find(([k]) => k === p.operation.key)?.[1] ?? p.operation.key;
  return p.operation.target === 'space' ? label : `${label} (${p.operation.target} only)`;
};

/** One space's permissions: listed, granted (read, create, administer; to a user or a group) and revoked. */
export function SpaceScreen({ spaceKey }: { spaceKey: string }) {
  const [version, setVersion] = useState(0);
  const [subjectType, setSubjectType] = useState<'user' | 'group'>('group');
  const [identifier, setIdentifier] = useState('');
  const [operation, setOperation] = useState<'read' | 'create' | 'administer'>('read');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const path = `/rest/api/space/${encodeURIComponent(spaceKey)}/permission`;
  const { data, error: loadError } = useDebouncedGet<{ results: Permission[] }>(path, version);
  const done = (message: string) => (setError(undefined), setNotice(message), setVersion((v) => v + 1));
  const readers = data?.results.filter((p) => p.operation.key === 'read') ?? [];

  const add = async (e: Event) => {
    e.preventDefault();
    const who = identifier.trim();
    try {
      await api('POST', path, { subject: { type: subjectType, identifier: who }, operation: { key: operation, target: 'space' } });
      done(`The ${subjectType} ${who} may now ${OPERATIONS.find(([k]) => k === operation)![1].toLowerCase()}.`);
      setIdentifier('');
    } catch (err) {
      setNotice(undefined);
      setError(errorText(err));
    }
  };

  const remove = async (p: Permission) => {
    const ok = await askConfirm({
      title: `Revoke "${words(p)}" from ${p.subject.identifier}?`,
      message: `The ${p.subject.type} ${p.subject.identifier} loses "${words(p)}" in ${spaceKey} at once, unless another grant (a group it is in) gives it the same.`,
      confirmLabel: 'Revoke permission',
    });
    if (!ok) return;
    try {
      await api('DELETE', `${path}/${p.id}`);
      done(`${p.subject.identifier} no longer holds "${words(p)}".`);
    } catch (err) {
      setNotice(undefined);
      setError(errorText(err));
    }
  };

  return (
    <section aria-labelledby="space-title">
      <p class="crumbs">
        <a href={href('spaces')}>Spaces</a> ›
      </p>
      <h1 id="space-title">Permissions of {spaceKey}</h1>
      <form class="card inline-form" data-testid="space-permission-form" onSubmit={add} aria-label={`Grant a permission in ${spaceKey}`}>
        <label>
          Grant to
          <select data-testid="space-permission-add-type" value={subjectType} onChange={(e) => setSubjectType(e.currentTarget.value as 'user' | 'group')}>
            <option value="group">Group</option>
            <option value="user">User</option>
          </select>
        </label>
        <label>
          {subjectType === 'user' ? 'User name' : 'Group name'}
          <input data-testid="space-permission-add-subject" required value={identifier} onInput={(e) => setIdentifier(e.currentTarget.value)} />
        </label>
        <label>
          Permission
          <select data-testid="space-permission-add-operation" value={operation} onChange={(e) => setOperation(e.currentTarget.value as 'read' | 'create' | 'administer')}>
            {OPERATIONS.map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" data-testid="space-permission-add">
          Grant
        </button>
      </form>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error ?? loadError} />
      {!data && !loadError && <Loading />}
      {data && readers.length === 0 && <WarningMessage>Nobody can read this space yet: grant read to a user or a group.</WarningMessage>}
      {data && data.results.length > 0 && (
        <ListTable class="list stack" columns={['Who', 'Kind', 'Permission', 'Actions']}>
          {data.results.map((p) => (
            <tr key={p.id} data-testid="space-permission-row" data-subject={p.subject.identifier} data-operation={p.operation.key}>
              <Cell label="Who" testId="space-permission-subject">
                {p.subject.type === 'user' ? <a href={href('users', p.subject.identifier)}>{p.subject.identifier}</a> : <a href={href('groups', p.subject.identifier)}>{p.subject.identifier}</a>}
              </Cell>
              <Cell label="Kind" testId="space-permission-subject-type">
                {p.subject.type}
              </Cell>
              <Cell label="Permission" testId="space-permission-operation">
                {words(p)}
              </Cell>
              <Cell label="Actions">
                <button type="button" class="small danger" data-testid="space-permission-remove" onClick={() => void remove(p)} aria-label={`Revoke ${words(p)} from ${p.subject.identifier}`}>
                  Revoke
                </button>
              </Cell>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}
