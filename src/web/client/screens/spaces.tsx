import { useState } from 'preact/hooks';
import { qs } from '../api.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import { href } from '../router.ts';
import { ErrorMessage, InfoMessage, ListTable, Loading, WarningMessage } from '../ui.tsx';

const PAGE_SIZE = 25;

/** A space as the administrators' list answers it (GET /rest/api/admin/space). */
export interface AdminSpace {
  key: string;
  name: string;
  nobodyReads: boolean;
}

interface WikiPage<T> {
  results: T[];
  start: number;
  limit: number;
  size: number;
  _links: { next?: string };
}

/**
 * Every space, also those the administrator may not read (an import leaves its spaces without any grant), with
 * a mark on those nobody can read yet; each opens its permissions.
 */
export function SpacesScreen() {
  const [start, setStart] = useState(0);
  const { data: page, error } = useDebouncedGet<WikiPage<AdminSpace>>(`/rest/api/admin/space${qs({ start, limit: PAGE_SIZE })}`);
  const unread = page?.results.filter((s) => s.nobodyReads) ?? [];
  return (
    <section aria-labelledby="spaces-title">
      <h1 id="spaces-title">Spaces</h1>
      <p class="muted">Who may read, create content in and administer each wiki space. Every space is listed here, also those you may not read yourself.</p>
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {unread.length > 0 && (
        <WarningMessage>
          Nobody can read {unread.length === 1 ? 'this space' : 'these spaces'} yet: {unread.map((s) => s.key).join(', ')}. Open a space to grant read to a user or group.
        </WarningMessage>
      )}
      {page && page.results.length === 0 && <InfoMessage>There are no spaces yet.</InfoMessage>}
      {page && page.results.length > 0 && (
        <>
          <ListTable class="list" columns={['Key', 'Name', 'Readers']}>
            {page.results.map((s) => (
              <tr key={s.key} data-testid="space-row" data-space-key={s.key}>
                <td>
                  <a href={href('spaces', s.key)}>{s.key}</a>
                </td>
                <td>{s.name}</td>
                <td>{s.nobodyReads ? <span class="badge off" data-testid="space-nobody-reads">Nobody can read it yet</span> : 'Granted'}</td>
              </tr>
            ))}
          </ListTable>
          <nav class="pager" aria-label="Pages">
            <button type="button" disabled={start === 0} onClick={() => setStart(Math.max(0, start - PAGE_SIZE))}>
              Previous
            </button>
            <span>
              {page.results.length === 0 ? 0 : start + 1}–{start + page.results.length}
            </span>
            <button type="button" disabled={page._links.next === undefined} onClick={() => setStart(start + PAGE_SIZE)}>
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
