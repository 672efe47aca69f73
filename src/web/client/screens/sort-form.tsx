import { useState } from 'preact/hooks';
import { api, errorText } from '../api.ts';
import { ErrorMessage } from '../ui.tsx';

const STRENGTHS = ['PRIMARY', 'SECONDARY', 'TERTIARY', 'IDENTICAL'] as const;

/** U14 / C6: sorts one list with a locale, a collation strength and an order. */
export function SortForm({ path, onSorted, label }: { path: string; onSorted: () => void; label: string }) {
  const [locale, setLocale] = useState(navigator.language || 'en-US');
  const [strength, setStrength] = useState('TERTIARY');
  const [order, setOrder] = useState('ASCENDING');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await api('POST', path, { locale, strength, order });
      setError(undefined);
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
        Strength
        <select value={strength} onChange={(e) => setStrength(e.currentTarget.value)}>
          {STRENGTHS.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        Order
        <select value={order} onChange={(e) => setOrder(e.currentTarget.value)}>
          <option value="ASCENDING">A → Z</option>
          <option value="DESCENDING">Z → A</option>
        </select>
      </label>
      <button type="submit" data-testid="sort-submit" disabled={busy}>
        Sort
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
