import { useState } from 'preact/hooks';
import { api, errorText } from '../api.ts';
import { askConfirm } from '../confirm.tsx';
import type { OptionPaths, OptionRecord } from '../fieldeditor.ts';
import { ErrorMessage } from '../ui.tsx';
import { useEditor, useEditorError } from './editor-context.ts';
import { fingerprint } from './option-undo.ts';

/** The collation strengths of U14 in plain words: what counts as a difference when two values are compared. */
export const STRENGTHS = [
  ['PRIMARY', 'Ignore case and accents'],
  ['SECONDARY', 'Ignore case only'],
  ['TERTIARY', 'Case and accents count'],
  ['IDENTICAL', 'Exact'],
] as const;
const ORDERS = [
  ['ASCENDING', 'A → Z'],
  ['DESCENDING', 'Z → A'],
] as const;

const labelOf = (pairs: readonly (readonly [string, string])[], value: string) => pairs.find(([v]) => v === value)?.[1] ?? value;

const byRank = (list: OptionRecord[]) => [...list].sort((a, b) => a.sequence - b.sequence);

/**
 * U14 / C6: sorts one list with a locale, a strength and an order, after a confirmation that names the list
 * and the order it will get (a sort replaces a hand-made order); the order before is kept for Undo.
 */
export function SortForm({
  paths,
  parentId,
  listName,
  label,
  testId,
  onSorted,
}: {
  paths: OptionPaths;
  parentId: number | null;
  /** The list in words: "the top-level options of Priority", "the child options of America". */
  listName: string;
  label: string;
  testId: string;
  onSorted: () => void;
}) {
  const editor = useEditor();
  const [locale, setLocale] = useState(navigator.language || 'en-US');
  const [strength, setStrength] = useState('TERTIARY');
  const [order, setOrder] = useState('ASCENDING');
  const [error, setError] = useEditorError();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    // No line break inside "A → Z" (a narrow dialog put the Z alone on the next line).
    const orderWords = labelOf(ORDERS, order).replaceAll(' ', '\u00a0');
    const ok = await askConfirm({
      title: `Sort ${listName}?`,
      message: `They will be put in alphabetical order ${orderWords} (${labelOf(STRENGTHS, strength).toLowerCase()}, by the rules of ${locale}). Their current order is replaced; Undo brings it back as long as the list has not changed since.`,
      confirmLabel: `Sort ${orderWords}`,
    });
    if (!ok) return;
    setBusy(true);
    try {
      const before = byRank(await api<OptionRecord[]>('GET', paths.list(parentId))).map((o) => o.id);
      await api('POST', `${paths.list(parentId)}/sort`, { locale, strength, order });
      const after = byRank(await api<OptionRecord[]>('GET', paths.list(parentId)));
      setError(undefined);
      editor?.succeeded();
      editor?.setUndo({ kind: 'sort', parentId, listName, before, after: fingerprint(after) });
      onSorted();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="sort-form" onSubmit={submit} aria-label={label}>
      <label>
        Locale
        <input value={locale} size={8} onInput={(e) => setLocale(e.currentTarget.value)} />
      </label>
      <label>
        Compare
        <select value={strength} onChange={(e) => setStrength(e.currentTarget.value)}>
          {STRENGTHS.map(([value, words]) => (
            <option key={value} value={value}>
              {words}
            </option>
          ))}
        </select>
      </label>
      <label>
        Order
        <select value={order} onChange={(e) => setOrder(e.currentTarget.value)}>
          {ORDERS.map(([value, words]) => (
            <option key={value} value={value}>
              {words}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" data-testid={testId} disabled={busy}>
        Sort…
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
