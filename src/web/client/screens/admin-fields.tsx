import { useEffect, useState } from 'preact/hooks';
import { api, errorText, FE, qs } from '../api.ts';
import type { FieldRecord } from '../fieldeditor.ts';
import { href } from '../router.ts';
import { ErrorMessage, Loading, Pager } from '../ui.tsx';
import { shortType } from './fields.tsx';

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

/** A1 (paged, filter, order) and the only-admins-may-delete setting. Administrators only (the API checks too). */
export function AdminFieldsScreen() {
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState('+name');
  const [startAt, setStartAt] = useState(0);
  const [page, setPage] = useState<AdminPage>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api<AdminPage>('GET', `${FE}/admin/customfields${qs({ startAt, maxResults: PAGE_SIZE, filter, orderBy: order })}`).then(
        (p) => live && (setPage(p), setError(undefined)),
        (e) => live && setError(errorText(e)),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [filter, order, startAt]);

  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title">Administration</h1>
      <DeleteSetting />
      <h2>Fields and grants</h2>
      <div class="toolbar">
        <label class="inline">
          Filter
          <input type="search" value={filter} placeholder="Part of the name" onInput={(e) => (setFilter(e.currentTarget.value), setStartAt(0))} />
        </label>
        <label class="inline">
          Order
          <select value={order} onChange={(e) => (setOrder(e.currentTarget.value), setStartAt(0))}>
            <option value="+name">Name A → Z</option>
            <option value="-name">Name Z → A</option>
          </select>
        </label>
      </div>
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {page && (
        <>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Type</th>
                <th scope="col">Global grants</th>
                <th scope="col" class="wide">Context grants</th>
              </tr>
            </thead>
            <tbody>
              {page.values.map((f) => (
                <tr key={f.fieldId} data-testid="field-row" data-field-id={f.fieldId}>
                  <td>
                    <a href={href('admin', f.fieldId)}>{f.fieldName}</a>
                  </td>
                  <td>{shortType(f.fieldType)}</td>
                  <td>{summary(f.globalPermission)}</td>
                  <td class="wide">{f.contextPermissions.map((c) => `${c.context.contextName}: ${summary(c)}`).join('; ') || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
    </section>
  );
}

const summary = (g: Grants) => [...g.userlist, ...g.grouplist.map((x) => `group ${x}`)].join(', ') || '—';

function DeleteSetting() {
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
