import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, errorText } from '../api.ts';
import { moveBody, type OptionPaths, type OptionRecord } from '../fieldeditor.ts';
import { ErrorMessage, Loading } from '../ui.tsx';
import { askConfirm } from '../confirm.tsx';
import { SortForm } from './sort-form.tsx';
import { useEditor, useEditorError } from './editor-context.ts';
import { fingerprint } from './option-undo.ts';

interface ListProps {
  paths: OptionPaths;
  /** null: the top-level list; otherwise the option whose children this list holds. */
  parentId: number | null;
  depth: number;
  maxDepth: number;
  canDelete: boolean;
  /** Raised from outside (a sort of this list) to re-read it. */
  version?: number;
  onChanged?: () => void;
  /** The list in words, for the sort's confirmation and the undo ("the child options of America"). */
  listName?: string;
}

/** Rows shown at first, and added by each "Show more": a list of 10,000 options paints its first page at once. */
const PAGE = 200;

/** The option being dragged: drops are accepted only within its own list. */
let dragging: { parentId: number | null; id: number } | undefined;

/**
 * One option list (top-level or the children of an option) and its add form. Every change goes through
 * the REST endpoint and then re-reads the list, so what is shown is what the server holds.
 */
export function OptionList({ paths, parentId, depth, maxDepth, canDelete, version = 0, onChanged, listName = 'the top-level options' }: ListProps) {
  const editor = useEditor();
  const [items, setItems] = useState<OptionRecord[]>();
  const [error, setError] = useEditorError();
  const [tick, setTick] = useState(0);
  const [filter, setFilter] = useState('');
  const [showing, setShowing] = useState(PAGE);
  // After a move by keyboard, the same button of the moved option gets the focus back.
  const pendingFocus = useRef<{ id: number; testId: string } | undefined>(undefined);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    let live = true;
    api<OptionRecord[]>('GET', paths.list(parentId)).then(
      (list) => live && setItems([...list].sort((a, b) => a.sequence - b.sequence)),
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [tick, version, editor?.reloads]);

  // Layout effects for the focus moves: they run in the render that changed the rows, so the focus is where it
  // belongs as soon as the screen shows them (a plain effect waits for the next frame, and keys typed meanwhile
  // went to the page).
  useLayoutEffect(() => {
    const want = pendingFocus.current;
    if (!want || !listRef.current) return;
    pendingFocus.current = undefined;
    const row = listRef.current.querySelector<HTMLElement>(`:scope > li[data-option-id="${want.id}"]`);
    const button = row?.querySelector<HTMLButtonElement>(`:scope > .row-main [data-testid="${want.testId}"]`);
    (button && !button.disabled ? button : row?.querySelector<HTMLElement>(':scope > .row-main button:not([disabled])'))?.focus();
  }, [items]);

  const changed = () => {
    setTick((t) => t + 1);
    onChanged?.();
  };

  /** Runs one write; its refusal shows the API's message above the list. */
  const write = async (fn: () => Promise<unknown>, after?: () => void): Promise<boolean> => {
    try {
      await fn();
      setError(undefined);
      editor?.succeeded();
      after?.();
      changed();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };

  const move = (from: number, to: number, focusTestId?: string) => {
    if (!items || to < 0 || to >= items.length || from === to) return;
    const item = items[from]!;
    if (focusTestId) pendingFocus.current = { id: item.id, testId: focusTestId };
    const before = items.map((i) => i.id);
    const moved = [...items];
    moved.splice(to, 0, ...moved.splice(from, 1));
    // Kept for Undo: the order before, and the list as this move leaves it (checked again before undoing).
    const step = { kind: 'move' as const, parentId, listName, before, after: fingerprint(moved) };
    void write(() => api('POST', `${paths.item(parentId, item.id)}/move`, moveBody(before, from, to)), () => editor?.setUndo(step));
  };

  if (!items) return error ? <ErrorMessage error={error} /> : <Loading />;
  // The top-level list: a filter and "New option" above it; long lists are shown a page at a time.
  const top = parentId === null;
  const needle = filter.trim().toLowerCase();
  const matching = needle === '' ? items.map((item, index) => ({ item, index })) : items.flatMap((item, index) => (item.optionvalue.toLowerCase().includes(needle) ? [{ item, index }] : []));
  const visible = matching.slice(0, showing);
  const more = matching.length > visible.length;
  // The count and "Show more" above the list as well as below it: a long list's size is seen without scrolling.
  const countLine = (where: 'top' | 'bottom') => (
    <p class="more">
      <span class="muted" data-testid={where === 'top' ? 'options-count' : undefined}>
        Showing {visible.length} of {matching.length}.
      </span>{' '}
      <button type="button" class="small" data-testid={where === 'top' ? 'options-more-top' : 'options-more'} onClick={() => setShowing((n) => n + PAGE)}>
        Show {Math.min(PAGE, matching.length - visible.length)} more
      </button>
    </p>
  );
  return (
    <div class="option-list">
      {top && (
        <div class="list-tools">
          <AddForm path={paths.list(parentId)} onAdded={changed} label="New option" testId="option-new" submitTestId="option-new-submit" />
          {items.length > 0 && (
            <label class="inline">
              Filter
              <input
                type="search"
                data-testid="option-filter"
                placeholder="Part of a value"
                value={filter}
                onInput={(e) => (setFilter(e.currentTarget.value), setShowing(PAGE))}
              />
            </label>
          )}
        </div>
      )}
      <ErrorMessage error={error} />
      {items.length === 0 && <p class="muted">No options yet.</p>}
      {top && needle !== '' && (
        <p class="muted" data-testid="option-filter-count" aria-live="polite">
          {matching.length} of {items.length} options match.
        </p>
      )}
      {top && more && countLine('top')}
      <ul ref={listRef} class="options" aria-label={top ? 'Options' : 'Child options'}>
        {visible.map(({ item, index }, shownAt) => (
          <OptionRow
            key={item.id}
            item={item}
            index={index}
            // ↑ and ↓ move among the options shown: in a filtered list, past the hidden ones to the next match.
            prev={shownAt > 0 ? visible[shownAt - 1]!.index : undefined}
            next={matching[shownAt + 1]?.index}
            listProps={{ paths, parentId, depth, maxDepth, canDelete }}
            write={write}
            move={move}
          />
        ))}
      </ul>
      {more && countLine('bottom')}
      {/* A child list's own form; the top level has "New option" above the list (one form per list). */}
      {!top && <AddForm path={paths.list(parentId)} onAdded={changed} label="New child option" />}
      {parentId !== null && items.length > 1 && (
        <details class="child-sort">
          <summary>Sort these child options</summary>
          <SortForm paths={paths} parentId={parentId} listName={listName} testId="sort-submit" onSorted={changed} label="Sort child options" />
        </details>
      )}
    </div>
  );
}

interface RowProps {
  item: OptionRecord;
  index: number;
  /** The list index of the option shown before / after this one (undefined: none). */
  prev: number | undefined;
  next: number | undefined;
  listProps: Omit<ListProps, 'version' | 'onChanged' | 'listName'>;
  write: (fn: () => Promise<unknown>) => Promise<boolean>;
  move: (from: number, to: number, focusTestId?: string) => void;
}

function OptionRow({ item, index, prev, next, listProps, write, move }: RowProps) {
  const { paths, parentId, depth, maxDepth, canDelete } = listProps;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.optionvalue);
  const [expanded, setExpanded] = useState(false);
  const [dropTarget, setDropTarget] = useState(false);
  const url = paths.item(parentId, item.id);
  const mayHaveChildren = depth < maxDepth;
  // Keyboard focus through a rename: into the input when it opens (the `autofocus` attribute does nothing on an
  // element inserted after the page loaded), back to the row's Rename button when it closes, never to the page.
  const renameInput = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useLayoutEffect(() => {
    if (editing) renameInput.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      renameButton.current?.focus();
    }
  }, [editing]);
  const closeEditor = () => {
    returnFocus.current = true;
    setEditing(false);
  };

  const rename = async () => {
    if (draft.trim() === item.optionvalue) return closeEditor();
    if (await write(() => api('PUT', url, { optionvalue: draft }))) closeEditor();
  };

  const remove = async () => {
    const what = mayHaveChildren ? `The option “${item.optionvalue}” and all its child options are` : `The option “${item.optionvalue}” is`;
    const ok = await askConfirm({
      title: `Delete “${item.optionvalue}”?`,
      message: `${what} deleted from this list, and removed from the default value if it is part of it. Disabling keeps it instead. This cannot be undone.`,
      confirmLabel: 'Delete option',
    });
    if (ok) void write(() => api('DELETE', url));
  };

  return (
    <li
      data-testid="option-row"
      data-option-id={item.id}
      class={`option${item.disabled ? ' disabled' : ''}${dropTarget ? ' drop-target' : ''}`}
      onDragOver={(e) => {
        if (dragging && dragging.parentId === parentId && dragging.id !== item.id) {
          e.preventDefault();
          e.stopPropagation();
          setDropTarget(true);
        }
      }}
      onDragLeave={() => setDropTarget(false)}
      onDrop={(e) => {
        setDropTarget(false);
        const d = dragging;
        if (!d || d.parentId !== parentId || d.id === item.id) return;
        e.preventDefault();
        e.stopPropagation();
        const from = Number((e.currentTarget.parentElement?.querySelector(`:scope > li[data-option-id="${d.id}"]`) as HTMLElement | null)?.dataset.index);
        if (Number.isInteger(from)) move(from, index);
      }}
      data-index={index}
    >
      <div class="row-main">
        <span
          class="handle"
          draggable
          title="Drag to move"
          aria-hidden="true"
          onDragStart={(e) => {
            dragging = { parentId, id: item.id };
            e.dataTransfer?.setData('text/plain', String(item.id));
            if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
          }}
          onDragEnd={() => (dragging = undefined)}
        >
          ⠿
        </span>
        {editing ? (
          <input
            class="rename"
            data-testid="option-rename-input"
            aria-label={`New value for ${item.optionvalue}`}
            value={draft}
            ref={renameInput}
            onInput={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void rename();
              if (e.key === 'Escape') {
                closeEditor();
                setDraft(item.optionvalue);
              }
            }}
          />
        ) : (
          <span class="value">{item.optionvalue}</span>
        )}
        {item.disabled && <span class="badge">disabled</span>}
        <span class="actions">
          {editing ? (
            <>
              <button type="button" class="small" onClick={() => void rename()}>
                Save
              </button>
              <button type="button" class="small" onClick={() => (closeEditor(), setDraft(item.optionvalue))}>
                Cancel
              </button>
            </>
          ) : (
            <button
              type="button"
              class="small"
              ref={renameButton}
              onClick={() => (setDraft(item.optionvalue), setEditing(true))}
              aria-label={`Rename ${item.optionvalue}`}
            >
              Rename
            </button>
          )}
          <button
            type="button"
            class="small"
            data-testid="option-disable-toggle"
            aria-pressed={item.disabled}
            aria-label={`${item.disabled ? 'Enable' : 'Disable'} ${item.optionvalue}`}
            onClick={() => void write(() => api('PUT', url, { disabled: !item.disabled }))}
          >
            {item.disabled ? 'Enable' : 'Disable'}
          </button>
          <button type="button" class="small icon" data-testid="option-move-first" disabled={index === 0} onClick={() => move(index, 0, 'option-move-first')} aria-label={`Move ${item.optionvalue} to the top`} title="Move to the top">
            ⤒
          </button>
          <button type="button" class="small icon" data-testid="option-move-up" disabled={prev === undefined} onClick={() => prev !== undefined && move(index, prev, 'option-move-up')} aria-label={`Move ${item.optionvalue} up`} title="Move up">
            ↑
          </button>
          <button type="button" class="small icon" data-testid="option-move-down" disabled={next === undefined} onClick={() => next !== undefined && move(index, next, 'option-move-down')} aria-label={`Move ${item.optionvalue} down`} title="Move down">
            ↓
          </button>
          {canDelete && (
            <button type="button" class="small danger" data-testid="option-delete" onClick={() => void remove()} aria-label={`Delete ${item.optionvalue}`}>
              Delete
            </button>
          )}
          {mayHaveChildren && (
            <button type="button" class="small" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
              {expanded ? 'Hide children' : 'Children'}
            </button>
          )}
        </span>
      </div>
      {expanded && (
        <OptionList paths={paths} parentId={item.id} depth={depth + 1} maxDepth={maxDepth} canDelete={canDelete} listName={`the child options of ${item.optionvalue}`} />
      )}
    </li>
  );
}

/** Appends an option; a duplicate (or any refusal) shows the API's message right under the input. */
function AddForm({ path, onAdded, label, testId = 'option-add-input', submitTestId = 'option-add-submit' }: { path: string; onAdded: () => void; label: string; testId?: string; submitTestId?: string }) {
  const editor = useEditor();
  const [value, setValue] = useState('');
  const [error, setError] = useEditorError();
  const input = useRef<HTMLInputElement>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await api('POST', path, { optionvalue: value });
      setValue('');
      setError(undefined);
      editor?.succeeded();
      onAdded();
      input.current?.focus();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form class="add-form" onSubmit={submit}>
      <input
        ref={input}
        data-testid={testId}
        aria-label={label}
        placeholder={label}
        value={value}
        aria-invalid={error ? true : undefined}
        onInput={(e) => (setValue(e.currentTarget.value), setError(undefined))}
        required
      />
      <button type="submit" data-testid={submitTestId}>
        Add
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
