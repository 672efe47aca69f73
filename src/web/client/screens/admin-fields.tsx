import { useEffect, useState } from 'preact/hooks';
import { api, errorText, FE, qs } from '../api.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import type { FieldRecord } from '../fieldeditor.ts';
import { FieldRow } from '../field-row.tsx';
import { Cell, ErrorMessage, FilterField, ListTable, Loading, OrderField, Pager } from '../ui.tsx';

interface Grants {
  userlist: string[];
  grouplist: string[];
}
interface AdminField extends FieldRecord {
  globalPermission: Grants;
  contextPermissions: (Grants & { context: { contextId: number; contextName: string } })[];
}
interface AdminPage {
  startAt: number;
  maxResults: number;
  total: number;
  values: AdminField[];
}

const PAGE_SIZE = 20;
const ORDERS = [
  ['+name', 'Name A → Z'],
  ['-name', 'Name Z → A'],
] as const;

/** A1 (paged, filter, order) and the only-admins-may-delete setting. Administrators only (the API checks too). */
export function AdminFieldsScreen() {
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState('+name');
  const [startAt, setStartAt] = useState(0);
  const { data: page, error } = useDebouncedGet<AdminPage>(
    `${FE}/admin/customfields${qs({ startAt, maxResults: PAGE_SIZE, filter, orderBy: order })}`,
  );

  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title">Administration</h1>
      <DeleteSetting />
      <h2>Fields and grants</h2>
      <div class="toolbar">
        <FilterField value={filter} onInput={(v) => (setFilter(v), setStartAt(0))} />
        <OrderField value={order} orders={ORDERS} onChange={(v) => (setOrder(v), setStartAt(0))} />
      </div>
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {page && (
        <>
          {/* One card per field at phone width, the context grants included: four columns broke "cascadingselect" mid-word. */}
          <ListTable class="list stack" columns={['Field', 'Type', 'Global grants', 'Context grants']}>
            {page.values.map((f) => (
              <FieldRow key={f.fieldId} field={f} route="admin">
                <Cell label="Global grants">{summary(f.globalPermission)}</Cell>
                <Cell label="Context grants">{f.contextPermissions.map((c) => `${c.context.contextName}: ${summary(c)}`).join('; ') || '—'}</Cell>
              </FieldRow>
            ))}
          </ListTable>
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
    </section>
  );
}

const summary = (g: Grants) => [...g.userlist, ...g.grouplist.map((x) => `group ${x}`)].join(', ') || '—';

export function DeleteSetting() {
  const [value, setValue] = useState<boolean>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api<{ onlyAdminsMayDeleteOptions: boolean }>('GET', `${FE}/admin/settings`).then((s) => setValue(s.onlyAdminsMayDeleteOptions), (e) => setError(errorText(e)));
  }, []);
  const change = async (next: boolean) => {
    try {
      const s = await api<{ onlyAdminsMayDeleteOptions: boolean }>('PUT', `${FE}/admin/settings`, { onlyAdminsMayDeleteOptions: next });
      setValue(s.onlyAdminsMayDeleteOptions);
      setError(undefined);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <div class="card setting">
      {value !== undefined && (
        <label class="check">
          <input type="checkbox" data-testid="setting-only-admins-delete" checked={value} onChange={(e) => void change(e.currentTarget.checked)} />
          Only administrators may delete options (editors can still add, rename, disable, move and sort)
        </label>
      )}
      <ErrorMessage error={error} />
    </div>
  );
}
