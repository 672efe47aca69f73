import type { ComponentChildren } from 'preact';
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

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <p class="notice" role="status">
      {children}
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
