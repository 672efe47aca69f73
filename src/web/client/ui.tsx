import { Fragment, type ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** The one way errors are shown: the API's own message, announced to screen readers. */
export function ErrorMessage({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert" data-testid="error-message">
      {error}
    </p>
  );
}

/**
 * Notices, told apart by more than colour (a mark and a border of their own): a success (an action did what was
 * asked), an information (how things are), a warning (what to look out for before acting). Errors are ErrorMessage.
 */
export function SuccessMessage({ children, testId = 'success-message' }: { children: ComponentChildren; testId?: string }) {
  return (
    <p class="success" role="status" data-testid={testId}>
      <span class="mark" aria-hidden="true">✓</span> {children}
    </p>
  );
}

/** A success notice (kept under its old name for the screens that use it). */
export const Notice = SuccessMessage;

export function InfoMessage({ children }: { children: ComponentChildren }) {
  return (
    <p class="info">
      <span class="mark" aria-hidden="true">ℹ</span> {children}
    </p>
  );
}

export function WarningMessage({ children }: { children: ComponentChildren }) {
  return (
    <p class="notice warning" role="status">
      <span class="mark" aria-hidden="true">!</span> {children}
    </p>
  );
}

export function Loading() {
  return <p class="muted" aria-busy="true">Loading…</p>;
}

/** A text that can be copied with one click (curl lines, a new token); selectable by hand as well. */
export function CopyLine({ text, testId, label }: { text: string; testId?: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard API unavailable (plain http on another host): the text stays selectable.
      setCopied(false);
    }
  };
  return (
    <div class="copy-line">
      <code data-testid={testId}>{text}</code>
      <button type="button" class="small" onClick={copy} aria-label={`Copy ${label}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

export interface Page {
  startAt: number;
  maxResults: number;
  total: number;
}

/** Previous / next for the `{startAt, maxResults, total}` pages of the field editor. */
export function Pager({ page, onStart }: { page: Page; onStart: (startAt: number) => void }) {
  const first = page.total === 0 ? 0 : page.startAt + 1;
  const last = Math.min(page.startAt + page.maxResults, page.total);
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page.startAt === 0} onClick={() => onStart(Math.max(0, page.startAt - page.maxResults))}>
        Previous
      </button>
      <span>
        {first}–{last} of {page.total}
      </span>
      <button type="button" disabled={last >= page.total} onClick={() => onStart(page.startAt + page.maxResults)}>
        Next
      </button>
    </nav>
  );
}

/** The name filter above a list (U1, A1, the jobs of M1); on each change the caller goes back to page one. */
export function FilterField({ value, onInput }: { value: string; onInput: (value: string) => void }) {
  return (
    <label class="inline">
      Filter
      <input
        type="search"
        value={value}
        placeholder="Part of the name"
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </label>
  );
}

/** The order of a list: its `orderBy` values with their labels, in menu order; the caller goes back to page one. */
export function OrderField({
  value,
  orders,
  onChange,
}: {
  value: string;
  orders: readonly (readonly [value: string, label: string])[];
  onChange: (value: string) => void;
}) {
  return (
    <label class="inline">
      Order
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {orders.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}


/**
 * A URL as code that a narrow column breaks after a slash (`https://hooks.example.com/` | `service-desk`) before it
 * breaks inside a word: each slash that ends a part is followed by a break opportunity (`<wbr>`, no text).
 */
export function UrlCode({ url }: { url: string }) {
  const parts = url.split(/(?<=\/)(?!\/)/);
  return (
    <code>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </code>
  );
}

/** A table cell that names its column, for the one-card-per-row layout of narrow screens (`table.stack` in styles.css). */
export function Cell(p: { label: string; cls?: string; testId?: string; title?: string; children: ComponentChildren }) {
  return (
    <td data-label={p.label} class={p.cls} data-testid={p.testId} title={p.title}>
      <div>{p.children}</div>
    </td>
  );
}
/** A `table.list` with one header row of column names; `wide` names the column hidden on narrow screens. */
export function ListTable({
  class: cls,
  columns,
  wide,
  children,
}: {
  class: string;
  columns: readonly string[];
  wide?: string;
  children: ComponentChildren;
}) {
  return (
    <table class={cls}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col" class={c === wide ? 'wide' : undefined}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
