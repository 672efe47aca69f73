import { useState } from 'preact/hooks';
import { FE, qs } from '../api.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import type { FieldPage } from '../fieldeditor.ts';
import { FieldRow } from '../field-row.tsx';
import { ErrorMessage, FilterField, ListTable, Loading, Pager } from '../ui.tsx';
import { href } from '../router.ts';

const PAGE_SIZE = 20;

/** U1: the fields the user holds a grant on, paged, with a filter; an administrator without any is sent to its home. */
export function FieldsScreen({ isAdmin = false }: { isAdmin?: boolean }) {
  const [filter, setFilter] = useState('');
  const [startAt, setStartAt] = useState(0);
  const { data: page, error } = useDebouncedGet<FieldPage>(
    `${FE}/user/customfields${qs({ startAt, maxResults: PAGE_SIZE, filter })}`,
  );

  return (
    <section aria-labelledby="fields-title">
      <h1 id="fields-title">Fields you may edit</h1>
      <FilterField value={filter} onInput={(v) => (setFilter(v), setStartAt(0))} />
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {page && (
        <>
          {page.values.length === 0 ? (
            <p class="muted">
              {filter
                ? 'No field you may edit matches this filter.'
                : isAdmin
                  ? <>No grant reaches you yet; administrators need one too. <a href={href('home')}>Home</a> lists every field and opens its editor.</>
                  : 'You may edit no field yet. An administrator grants the right to edit a field’s options.'}
            </p>
          ) : (
            <ListTable class="list" columns={['Field', 'Type', 'Description']} wide="Description">
              {page.values.map((f) => (
                <FieldRow key={f.fieldId} field={f} route="fields">
                  <td class="wide">{f.fieldDescription}</td>
                </FieldRow>
              ))}
            </ListTable>
          )}
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
    </section>
  );
}
