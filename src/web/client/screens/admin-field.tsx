import { useEffect, useState } from 'preact/hooks';
import { api, errorText, FE } from '../api.ts';
import type { FieldRecord } from '../fieldeditor.ts';
import { href } from '../router.ts';
import { ErrorMessage, Loading } from '../ui.tsx';
import { askConfirm } from '../confirm.tsx';
import { GrantEditor, type GrantLists } from './grant-editor.tsx';

interface AdminContext {
  contextId: number;
  contextName: string;
  contextDescription: string;
  isGlobal: boolean;
  projects: { projectId: number; projectKey: string; projectName: string }[];
  issueTypes: { issueTypeId: string; issueTypeName: string }[];
}
interface Project {
  id: string;
  key: string;
  name: string;
}
interface IssueType {
  id: string;
  name: string;
}
interface Loaded {
  field: FieldRecord;
  global: GrantLists;
  contexts: AdminContext[];
  contextGrants: Map<number, GrantLists>;
  projects: Project[];
  issueTypes: IssueType[];
}

/** One field for administrators: global and per-context grants (A2, A4, A9) and its contexts (A5–A8). */
export function AdminFieldScreen({ fieldId }: { fieldId: string }) {
  const [data, setData] = useState<Loaded>();
  const [error, setError] = useState<string>();
  const [version, setVersion] = useState(0);
  const base = `${FE}/admin/customfields/${encodeURIComponent(fieldId)}`;

  useEffect(() => {
    Promise.all([
      api<GrantLists & { field: FieldRecord }>('GET', `${base}?expand=field`),
      api<AdminContext[]>('GET', `${base}/contexts?expand=projects,issueTypes`),
      api<(GrantLists & { contextId: number })[]>('GET', `${base}/contexts/permissions`),
      api<Project[]>('GET', '/rest/api/2/project'),
      api<IssueType[]>('GET', '/rest/api/2/issuetype'),
    ]).then(
      ([g, contexts, perms, projects, issueTypes]) =>
        setData({
          field: g.field,
          global: { userlist: g.userlist, grouplist: g.grouplist },
          contexts,
          contextGrants: new Map(perms.map((p) => [p.contextId, { userlist: p.userlist, grouplist: p.grouplist }])),
          projects,
          issueTypes,
        }),
      (e) => setError(errorText(e)),
    );
  }, [version]);

  const reload = () => setVersion((v) => v + 1);
  if (!data) return error ? <ErrorMessage error={error} /> : <Loading />;
  return (
    <section aria-labelledby="admin-field-title">
      <p class="crumbs">
        <a href={href('admin')}>Administration</a> ›
      </p>
      <h1 id="admin-field-title">{data.field.fieldName}</h1>
      <p>
        <a class="button" data-testid="admin-field-open-editor" href={href('fields', data.field.fieldId)}>
          Open the option editor
        </a>{' '}
        <span class="muted">(editing needs a grant below, administrators included)</span>
      </p>
      <ErrorMessage error={error} />
      <div class="card">
        <h2>Global grants</h2>
        <p class="muted">Users and groups granted here may edit the options of every context of this field.</p>
        <GrantEditor key={`g${version}`} fieldId={fieldId} scope={{ type: 'GLOBAL' }} initial={data.global} label="Global grants" />
      </div>
      <h2>Contexts</h2>
      {data.contexts.map((c, i) => (
        // A5 lists the default context first; it cannot be deleted, so it offers no Delete.
        <ContextCard key={`${c.contextId}:${version}`} isDefault={i === 0} fieldId={fieldId} base={base} context={c} grants={data.contextGrants.get(c.contextId) ?? { userlist: [], grouplist: [] }} data={data} onChanged={reload} />
      ))}
      <div class="card">
        <h3>New context</h3>
        <ContextForm base={base} data={data} onSaved={reload} />
      </div>
    </section>
  );
}

function ContextCard(props: { isDefault: boolean; fieldId: string; base: string; context: AdminContext; grants: GrantLists; data: Loaded; onChanged: () => void }) {
  const { context: c } = props;
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const scopeText = c.isGlobal
    ? 'All projects and issue types'
    : `${c.projects.map((p) => p.projectKey).join(', ') || 'all projects'} · ${c.issueTypes.map((i) => i.issueTypeName).join(', ') || 'all issue types'}`;

  const remove = async () => {
    const ok = await askConfirm({
      title: `Delete the context ${c.contextName}?`,
      message: `The context ${c.contextName} is deleted with its options, its default value and its grants. This cannot be undone.`,
      confirmLabel: 'Delete context',
    });
    if (!ok) return;
    try {
      await api('DELETE', `${props.base}/contexts/${c.contextId}`);
      props.onChanged();
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <div class="card context-card" data-testid="context-row" data-context-id={c.contextId}>
      <div class="card-head">
        <div>
          <h3>{c.contextName}</h3>
          <p class="muted">
            {c.contextDescription} {c.contextDescription && '·'} {scopeText}
          </p>
        </div>
        <span class="actions">
          <button type="button" class="small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {editing ? 'Close' : 'Edit'}
          </button>
          {props.isDefault ? (
            <span class="badge">Default context</span>
          ) : (
            <button type="button" class="small danger" onClick={() => void remove()}>
              Delete
            </button>
          )}
        </span>
      </div>
      <ErrorMessage error={error} />
      {editing && <ContextForm base={props.base} data={props.data} context={c} onSaved={props.onChanged} />}
      <h4>Grants on this context</h4>
      <GrantEditor fieldId={props.fieldId} scope={{ type: 'CONTEXT', contextId: c.contextId }} initial={props.grants} label={`Grants on ${c.contextName}`} />
    </div>
  );
}

/** A6 (new) or A7 (update): name, description, projects and issue types. */
function ContextForm({ base, data, context, onSaved }: { base: string; data: Loaded; context?: AdminContext; onSaved: () => void }) {
  const [name, setName] = useState(context?.contextName ?? '');
  const [description, setDescription] = useState(context?.contextDescription ?? '');
  const [projects, setProjects] = useState<string[]>(context?.projects.map((p) => String(p.projectId)) ?? []);
  const [issueTypes, setIssueTypes] = useState<string[]>(context?.issueTypes.map((i) => String(i.issueTypeId)) ?? []);
  const [error, setError] = useState<string>();

  const toggle = (list: string[], set: (l: string[]) => void, id: string) => set(list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const body = { name, description, projectIds: projects, issueTypeIds: issueTypes };
    try {
      if (context) await api('PUT', `${base}/contexts/${context.contextId}`, body);
      else await api('POST', `${base}/contexts`, body);
      setError(undefined);
      if (!context) {
        setName('');
        setDescription('');
        setProjects([]);
        setIssueTypes([]);
      }
      onSaved();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form class="context-form" onSubmit={submit}>
      <label>
        Name
        <input data-testid="context-name-input" value={name} required onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <fieldset>
        <legend>Projects (none: all projects)</legend>
        {data.projects.map((p) => (
          <label key={p.id} class="check">
            <input type="checkbox" checked={projects.includes(p.id)} onChange={() => toggle(projects, setProjects, p.id)} />
            {p.key} — {p.name}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Issue types (none: all issue types)</legend>
        {data.issueTypes.map((t) => (
          <label key={t.id} class="check">
            <input type="checkbox" checked={issueTypes.includes(t.id)} onChange={() => toggle(issueTypes, setIssueTypes, t.id)} />
            {t.name}
          </label>
        ))}
      </fieldset>
      <button type="submit" data-testid="context-save" class="primary">
        {context ? 'Save context' : 'Create context'}
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
