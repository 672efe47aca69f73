import { useEffect, useState } from 'preact/hooks';
import { api, errorText, FE, qs } from '../api.ts';
import type { FieldPage } from '../fieldeditor.ts';
import { href } from '../router.ts';
import { ErrorMessage, Loading, Pager } from '../ui.tsx';

const PAGE_SIZE = 20;

/** U1: the fields the user holds a grant on, paged, with a filter. */
export function FieldsScreen() {
  const [filter, setFilter] = useState('');
  const [startAt, setStartAt] = useState(0);
  const [page, setPage] = useState<FieldPage>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api<FieldPage>('GET', `${FE}/user/customfields${qs({ startAt, maxResults: PAGE_SIZE, filter })}`).then(
        (p) => live && (setPage(p), setError(undefined)),
        (e) => live && setError(errorText(e)),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [filter, startAt]);

  return (
    <section aria-labelledby="fields-title">
      <h1 id="fields-title">Fields you may edit</h1>
      <label class="inline">
        Filter
        <input type="search" value={filter} placeholder="Part of the name" onInput={(e) => (setFilter(e.currentTarget.value), setStartAt(0))} />
      </label>
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {page && (
        <>
          {page.values.length === 0 ? (
            <p class="muted">No field matches. An administrator grants the right to edit a field's options.</p>
          ) : (
            <table class="list">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Type</th>
                  <th scope="col" class="wide">Description</th>
                </tr>
              </thead>
              <tbody>
                {page.values.map((f) => (
                  <tr key={f.fieldId} data-testid="field-row" data-field-id={f.fieldId}>
                    <td>
                      <a href={href('fields', f.fieldId)}>{f.fieldName}</a>
                    </td>
                    <td>{shortType(f.fieldType)}</td>
                    <td class="wide">{f.fieldDescription}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
    </section>
  );
}

export const shortType = (t: string) => (t.includes(':') ? t.slice(t.lastIndexOf(':') + 1) : t);
