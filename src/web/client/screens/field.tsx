import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, FE } from '../api.ts';
import { defaultKindOf, maxDepthOf, OptionPaths, type ContextRecord, type ContextView } from '../fieldeditor.ts';
import { go, href } from '../router.ts';
import { ErrorMessage, InfoMessage, Loading } from '../ui.tsx';
import { EditorContext } from './editor-context.ts';
import { UndoBar, useSharedEditor } from './undo-bar.tsx';
import { OptionList } from './option-tree.tsx';
import { SortForm } from './sort-form.tsx';
import { DefaultEditor } from './default-editor.tsx';
import { OptionTransfer } from './option-transfer.tsx';

/** U2 then U3: the contexts of a field the user may edit, and the option editor of the chosen one. */
export function FieldScreen({ fieldId, contextId }: { fieldId: string; contextId: string | undefined }) {
  const [contexts, setContexts] = useState<ContextRecord[]>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    api<ContextRecord[]>('GET', `${FE}/user/customfields/${encodeURIComponent(fieldId)}/contexts`).then(setContexts, (e) => setError(errorText(e)));
  }, [fieldId]);

  const chosen = contextId ?? (contexts?.[0] ? String(contexts[0].contextId) : undefined);
  return (
    <section aria-labelledby="field-title">
      <p class="crumbs">
        <a href={href('fields')}>Fields</a> ›
      </p>
      <ErrorMessage error={error} />
      {!contexts && !error && <Loading />}
      {chosen && contexts && (
        <OptionEditor
          key={chosen}
          fieldId={fieldId}
          contextId={chosen}
          picker={(actualId) => (
            <label class="inline">
              Context
              <select data-testid="context-select" value={String(actualId)} onChange={(e) => go('fields', fieldId, e.currentTarget.value)}>
                {contexts.map((c) => (
                  <option key={c.contextId} value={String(c.contextId)}>
                    {c.contextName}
                  </option>
                ))}
              </select>
            </label>
          )}
        />
      )}
    </section>
  );
}

/** `picker` renders the context choice for the context's real id (the address may say `default`). */
function OptionEditor({ fieldId, contextId, picker }: { fieldId: string; contextId: string; picker: (actualId: string) => JSX.Element }) {
  const [view, setView] = useState<ContextView>();
  const [error, setError] = useState<string>();
  // Raised after every change of the top-level list, so the default editor re-reads its choices.
  const [version, setVersion] = useState(0);
  const shared = useSharedEditor();
  const paths = new OptionPaths(fieldId, contextId);

  useEffect(() => {
    api<ContextView>('GET', `${FE}/user/customfields/${encodeURIComponent(fieldId)}/contexts/${encodeURIComponent(contextId)}`).then(setView, (e) =>
      setError(errorText(e)),
    );
  }, [fieldId, contextId]);

  if (error) return (
      <>
        {picker(contextId)}
        <ErrorMessage error={error} />
      </>
    );
  if (!view) return <Loading />;
  const canDelete = view.authenticatedUserMeta.userAllowedToDeleteOptions;
  const kind = defaultKindOf(view.fieldType);
  return (
    <EditorContext.Provider value={shared}>
      <h1 id="field-title">
        {view.fieldName}
      </h1>
      {picker(String(view.context.contextId))}
      {!canDelete && <InfoMessage>Only administrators may delete options of this field.</InfoMessage>}
      <div class="editor">
        <div class="editor-main">
          <h2>Options</h2>
          <SortForm
            paths={paths}
            parentId={null}
            listName={`the top-level options of ${view.fieldName}`}
            testId="option-sort"
            onSorted={() => setVersion((v) => v + 1)}
            label="Sort all top-level options"
          />
          <UndoBar paths={paths} />
          <OptionTransfer listPath={paths.list(null)} onApplied={() => (shared.succeeded(), setVersion((v) => v + 1))} />
          <OptionList
            paths={paths}
            parentId={null}
            depth={1}
            maxDepth={maxDepthOf(view.fieldType)}
            canDelete={canDelete}
            version={version}
            onChanged={() => setVersion((v) => v + 1)}
          />
        </div>
        {kind !== 'none' && (
          <aside class="editor-side">
            <h2>Default value</h2>
            <DefaultEditor paths={paths} kind={kind} version={version} canDelete={canDelete} />
          </aside>
        )}
      </div>
    </EditorContext.Provider>
  );
}
