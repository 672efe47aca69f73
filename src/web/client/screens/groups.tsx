import { useState } from 'preact/hooks';
import { api, errorText, qs } from '../api.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import { count, GROUPS, type HostPage, type ListedGroup } from '../directory.ts';
import { href } from '../router.ts';
import { Cell, ErrorMessage, FilterField, ListTable, Loading, InfoMessage, Notice, Pager } from '../ui.tsx';

const PAGE_SIZE = 25;

/** The groups with their member counts (paged, filtered by name) and the form that creates one. */
export function GroupsScreen() {
  const [filter, setFilter] = useState('');
  const [startAt, setStartAt] = useState(0);
  const [version, setVersion] = useState(0);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const { data: page, error: loadError } = useDebouncedGet<HostPage<ListedGroup>>(`${GROUPS}${qs({ query: filter, startAt, maxResults: PAGE_SIZE })}`, version);

  const create = async (e: Event) => {
    e.preventDefault();
    try {
      const created = await api<{ name: string }>('POST', '/rest/api/2/group', { name: name.trim() });
      setName('');
      setError(undefined);
      setNotice(`The group ${created.name} was created.`);
      setVersion((v) => v + 1);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section aria-labelledby="groups-title">
      <h1 id="groups-title">Groups</h1>
      <form class="card inline-form" onSubmit={create} aria-label="New group">
        <label>
          New group
          <input data-testid="group-create-name" required maxLength={255} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" data-testid="group-create-submit">
          Create group
        </button>
      </form>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error ?? loadError} />
      <div class="toolbar">
        <FilterField value={filter} onInput={(v) => (setFilter(v), setStartAt(0))} />
      </div>
      {!page && !loadError && <Loading />}
      {page && page.total === 0 && <InfoMessage>No group matches.</InfoMessage>}
      {page && page.values.length > 0 && (
        <>
          {/* One card per group at phone width: a third of 390 px broke "administrators" mid-word. */}
          <ListTable class="list stack" columns={['Group', 'Members', 'Kind']}>
            {page.values.map((g) => (
              <tr key={g.name} data-testid="group-row" data-group-name={g.name}>
                <Cell label="Group">
                  <a href={href('groups', g.name)}>{g.name}</a>
                </Cell>
                <Cell label="Members">{count(g.memberCount, 'member')}</Cell>
                <Cell label="Kind">{g.builtin ? 'built in' : <span class="muted">—</span>}</Cell>
              </tr>
            ))}
          </ListTable>
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
    </section>
  );
}
