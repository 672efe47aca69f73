import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from '../api.ts';
import type { DefaultKind, DefaultReadModel, OptionPaths, OptionRecord } from '../fieldeditor.ts';
import { ErrorMessage, Loading, Notice } from '../ui.tsx';
import { DefaultPicker } from './default-picker.tsx';
import { useEditor, useEditorError } from './editor-context.ts';

/**
 * U15: the context's default value in the form the field type takes: one option (select, radio buttons),
 * an option and one of its children (cascading), or several options (multi select, checkboxes).
 * Only enabled options can be chosen (the API refuses others).
 */
export function DefaultEditor({ paths, kind, version, canDelete }: { paths: OptionPaths; kind: Exclude<DefaultKind, 'none'>; version: number; canDelete: boolean }) {
  const [options, setOptions] = useState<OptionRecord[]>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [child, setChild] = useState('');
  const [children, setChildren] = useState<OptionRecord[]>([]);
  const editor = useEditor();
  const [error, setError] = useEditorError();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    Promise.all([api<OptionRecord[]>('GET', paths.list(null)), api<DefaultReadModel>('GET', paths.defaults)]).then(
      ([list, current]) => {
        setOptions(list.filter((o) => !o.disabled).sort((a, b) => a.sequence - b.sequence));
        if (kind === 'multi') setChosen((current.defaultOptions ?? []).map((o) => String(o.id)));
        else setChosen(current.defaultOption ? [String(current.defaultOption.id)] : []);
        setChild(current.defaultChildOption ? String(current.defaultChildOption.id) : '');
      },
      (e) => setError(errorText(e)),
    );
  }, [version, editor?.reloads]);

  const parent = kind === 'cascading' ? chosen[0] : undefined;
  useEffect(() => {
    if (!parent) return setChildren([]);
    api<OptionRecord[]>('GET', paths.list(Number(parent))).then(
      (list) => setChildren(list.filter((o) => !o.disabled).sort((a, b) => a.sequence - b.sequence)),
      (e) => setError(errorText(e)),
    );
  }, [parent]);

  const run = async (fn: () => Promise<unknown>) => {
    setSaved(false);
    try {
      await fn();
      setError(undefined);
      setSaved(true);
      editor?.succeeded(true);
    } catch (e) {
      setError(errorText(e));
    }
  };

  const save = (e: Event) => {
    e.preventDefault();
    if (kind === 'multi') return void run(() => api('PUT', paths.defaults, { optionIds: chosen.map(Number) }));
    if (chosen.length === 0) return void run(() => api('DELETE', paths.defaults));
    const body: Record<string, number> = { optionId: Number(chosen[0]) };
    if (kind === 'cascading' && child) body.childOptionId = Number(child);
    return void run(() => api('PUT', paths.defaults, body));
  };

  if (!options) return error ? <ErrorMessage error={error} /> : <Loading />;
  return (
    <form class="default-form" onSubmit={save}>
      {kind === 'multi' ? (
        <DefaultPicker options={options} chosen={chosen} onChange={(ids) => (setChosen(ids), setSaved(false))} />
      ) : (
        <label>
          Default option
          <select data-testid="default-select" value={chosen[0] ?? ''} onChange={(e) => (setChosen(e.currentTarget.value ? [e.currentTarget.value] : []), setChild(''))}>
            <option value="">— none —</option>
            {options.map((o) => (
              <option key={o.id} value={String(o.id)}>
                {o.optionvalue}
              </option>
            ))}
          </select>
        </label>
      )}
      {kind === 'cascading' && parent && (
        <label>
          Default child option
          <select data-testid="default-child-select" value={child} onChange={(e) => setChild(e.currentTarget.value)}>
            <option value="">— none —</option>
            {children.map((o) => (
              <option key={o.id} value={String(o.id)}>
                {o.optionvalue}
              </option>
            ))}
          </select>
        </label>
      )}
      <div class="buttons">
        <button type="submit" class="primary">
          Save default
        </button>
        {canDelete && (
          <button type="button" onClick={() => void run(async () => (await api('DELETE', paths.defaults), setChosen([]), setChild('')))}>
            Clear
          </button>
        )}
      </div>
      <ErrorMessage error={error} />
      {saved && !error && <Notice>Default saved.</Notice>}
    </form>
  );
}
