import { useEffect, useState } from 'preact/hooks';
import { api, errorText, FE, qs } from '../api.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import type { FieldRecord } from '../fieldeditor.ts';
import { shortType } from '../field-row.tsx';
import { go, href } from '../router.ts';
import type { Me } from '../session.ts';
import { askConfirm } from '../confirm.tsx';
import { DeleteSetting } from './admin-fields.tsx';
import { ErrorMessage, FilterField, ListTable, Loading, InfoMessage, Pager } from '../ui.tsx';

interface Grants {
  userlist: string[];
  grouplist: string[];
}
interface HomeField extends FieldRecord {
  globalPermission: Grants;
  contextPermissions: (Grants & { context: { contextId: number; contextName: string } })[];
}
interface HomePage {
  startAt: number;
  maxResults: number;
  total: number;
  values: HomeField[];
}

const PAGE_SIZE = 20;
const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());

/** Whether grants reach the user: its name or one of its groups (names compared without regard to case). */
const reaches = (g: Grants, me: Me) => lower(g.userlist).includes(me.name.toLowerCase()) || lower(g.grouplist).some((x) => lower(me.groups).includes(x));

type ContextName = { contextId: number; contextName: string };

/** Every context of the listed fields (A5, one request per field, asked together), by field id. */
function useContexts(fieldIds: number[]): Map<number, ContextName[]> {
  const [byField, setByField] = useState(new Map<number, ContextName[]>());
  const key = fieldIds.join(',');
  useEffect(() => {
    let live = true;
    Promise.all(fieldIds.map((id) => api<ContextName[]>('GET', `${FE}/admin/customfields/${id}/contexts`).then((cs) => [id, cs] as const, () => [id, undefined] as const))).then(
      (pairs) => live && setByField(new Map(pairs.filter((p): p is readonly [number, ContextName[]] => p[1] !== undefined))),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return byField;
}

/** Who may edit, in words: "alice, group developers", or nobody. */
const who = (g: Grants) => [...g.userlist, ...g.grouplist.map((x) => `group ${x}`)].join(', ');

/**
 * The administrator's first screen: every field (A1, paged), its contexts, who may edit each, and the way into
 * its option editor. The option endpoints need a grant, administrators included (docs/fieldeditor-api.md,
 * "Permission model"); where none reaches this administrator, the button grants it globally (A4, recorded in
 * the event log) and opens the editor.
 */
export function AdminHomeScreen({ me }: { me: Me }) {
  const [filter, setFilter] = useState('');
  const [startAt, setStartAt] = useState(0);
  const [error, setError] = useState<string>();
  const { data: page, error: loadError } = useDebouncedGet<HomePage>(`${FE}/admin/customfields${qs({ startAt, maxResults: PAGE_SIZE, filter })}`);
  const contexts = useContexts(page?.values.map((f) => f.fieldId) ?? []);

  const open = async (f: HomeField, granted: boolean) => {
    if (!granted) {
      // The grant is permanent and recorded: say so and ask before writing it.
      const ok = await askConfirm({
        title: `Grant yourself ${f.fieldName}?`,
        message: `No grant lets you (${me.name}) edit the options of ${f.fieldName} yet. This gives you a lasting grant on every context of the field, recorded in the event log like any grant, and then opens its editor. You can revoke it on the field’s page.`,
        confirmLabel: 'Grant me and open',
      });
      if (!ok) return;
      try {
        await api('PATCH', `${FE}/admin/customfields/${f.fieldId}`, { user: me.name, action: 'GRANT', type: 'GLOBAL' });
      } catch (e) {
        setError(errorText(e));
        return;
      }
    }
    go('fields', f.fieldId);
  };

  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Fields and who may edit them</h1>
      <p class="muted">
        Every select field with its contexts. Users and groups named here may edit a context’s options; grant and revoke on the field’s page.
      </p>
      <div class="toolbar">
        <FilterField value={filter} onInput={(v) => (setFilter(v), setStartAt(0))} />
      </div>
      <DeleteSetting />
      <ErrorMessage error={error ?? loadError} />
      {!page && !loadError && <Loading />}
      {page && page.total === 0 && <InfoMessage>No field matches.</InfoMessage>}
      {page && page.values.length > 0 && (
        <>
          <ListTable class="list home" columns={['Field', 'Contexts and who may edit', 'Options']}>
            {page.values.map((f) => {
              const granted = reaches(f.globalPermission, me) || f.contextPermissions.some((c) => reaches(c, me));
              const everywhere = who(f.globalPermission);
              return (
                <tr key={f.fieldId} data-testid="admin-home-field" data-field-id={f.fieldId}>
                  <td>
                    <a href={href('admin', f.fieldId)}>{f.fieldName}</a>
                    <div class="muted">{shortType(f.fieldType)}</div>
                  </td>
                  <td>
                    <ul class="plain">
                      {everywhere && <li>Every context: {everywhere}</li>}
                      {(contexts.get(f.fieldId) ?? f.contextPermissions.map((c) => c.context)).map((c) => {
                        const grants = f.contextPermissions.find((p) => p.context.contextId === c.contextId);
                        const named = grants ? who(grants) : '';
                        return (
                          <li key={c.contextId}>
                            {c.contextName}: {named || <span class="muted">{everywhere ? 'no one else' : 'no one yet'}</span>}
                          </li>
                        );
                      })}
                    </ul>
                  </td>
                  <td>
                    <button type="button" class="small" data-testid="admin-home-open-editor" onClick={() => void open(f, granted)}>
                      {granted ? 'Open editor' : 'Grant me and open editor'}
                    </button>
                  </td>
                </tr>
              );
            })}
          </ListTable>
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
    </section>
  );
}
