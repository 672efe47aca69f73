import { useState } from 'preact/hooks';
import { ApiError, contextPath, messageOf } from '../api.ts';
import { plainWords } from '../error-words.ts';
import { ErrorMessage } from '../ui.tsx';

/** A change of a sync's answer (docs/fieldeditor-api.md, "Lists in bulk"). */
interface Change {
  id?: number;
  path: string;
  from?: string;
  to?: string;
  options?: number;
  default?: true;
  fromParentId?: number | null;
  toParentId?: number | null;
  toPosition?: number;
}
interface SyncAnswer {
  create: Change[];
  rename: Change[];
  move: Change[];
  disable: Change[];
  enable: Change[];
  delete: Change[];
  unlisted: Change[];
  applied: boolean;
  etag: string;
}

const KINDS: { key: keyof Omit<SyncAnswer, 'applied' | 'etag'>; title: string }[] = [
  { key: 'create', title: 'To create' },
  { key: 'rename', title: 'To rename' },
  { key: 'move', title: 'To move' },
  { key: 'disable', title: 'To disable' },
  { key: 'enable', title: 'To enable' },
  { key: 'delete', title: 'To delete' },
  { key: 'unlisted', title: 'Not in the file (kept)' },
];

/** One line of the preview in words. */
function describe(kind: string, c: Change): string {
  const defaultNote = c.default ? ' (in use as a default value)' : '';
  switch (kind) {
    case 'rename': {
      // The path ends with the new name; only its parent part (if any) adds something: `Europe/Austria → Österreich`.
      const to = c.to ?? '';
      const last = to.replace(/\\/g, '\\\\').replace(/\//g, '\\/'); // as the path writes a name: `\/` and `\\`
      const parent = c.path.endsWith(last) ? c.path.slice(0, c.path.length - last.length) : '';
      return `${parent}${c.from} → ${to}`;
    }
    case 'move':
      return `${c.path}: to place ${(c.toPosition ?? 0) + 1}${c.fromParentId !== c.toParentId ? ', under another parent' : ''}`;
    case 'delete':
      return `${c.path}${c.options && c.options > 1 ? ` and ${c.options - 1} child option${c.options > 2 ? 's' : ''}` : ''}${defaultNote}`;
    default:
      return `${c.path}${defaultNote}`;
  }
}

/** POST of a file to the sync (the interface's api() sends JSON only). */
async function sendFile(url: string, file: File, ifMatch?: string): Promise<SyncAnswer> {
  const type = file.name.toLowerCase().endsWith('.csv') || file.type === 'text/csv' ? 'text/csv' : 'application/json';
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': type, 'X-Atlassian-Token': 'no-check', 'X-Requested-With': 'XMLHttpRequest' };
  if (ifMatch) headers['If-Match'] = ifMatch;
  const res = await fetch(contextPath + url, { method: 'POST', headers, credentials: 'same-origin', body: file });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  if (!res.ok) throw new ApiError(res.status, messageOf(body, res.status), body);
  return body as SyncAnswer;
}

/**
 * Export and import of a context's whole option tree (issue 27): download as CSV or JSON; upload a file, see
 * what would change as a readable list, and apply exactly that (the preview's ETag goes along as If-Match, so
 * a list changed meanwhile is refused and previewed again).
 */
export function OptionTransfer({ listPath, onApplied }: { listPath: string; onApplied: () => void }) {
  const [file, setFile] = useState<File>();
  const [allowDelete, setAllowDelete] = useState(false);
  const [preview, setPreview] = useState<SyncAnswer>();
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (chosen: File | undefined, del: boolean) => {
    setPreview(undefined);
    setDone(undefined);
    setError(undefined);
    if (!chosen) return;
    setBusy(true);
    try {
      setPreview(await sendFile(`${listPath}/sync?dryRun=true&allowDelete=${del}`, chosen));
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setBusy(false);
    }
  };

  const apply = async () => {
    if (!file || !preview) return;
    setBusy(true);
    try {
      const answer = await sendFile(`${listPath}/sync?dryRun=false&allowDelete=${allowDelete}`, file, preview.etag);
      const count = KINDS.filter((k) => k.key !== 'unlisted').reduce((n, k) => n + answer[k.key].length, 0);
      setPreview(undefined);
      setDone(`Applied: ${count} change${count === 1 ? '' : 's'}.`);
      onApplied();
    } catch (e) {
      setError(e instanceof ApiError && e.status === 412 ? 'The list changed since this preview. It was previewed again: check it and apply once more.' : plainWords(e));
      if (e instanceof ApiError && e.status === 412) await run(file, allowDelete);
    } finally {
      setBusy(false);
    }
  };

  const changes = preview ? KINDS.filter((k) => k.key !== 'unlisted').reduce((n, k) => n + preview[k.key].length, 0) : 0;
  return (
    <details class="transfer" open={preview !== undefined || done !== undefined || error !== undefined ? true : undefined}>
      <summary>Export and import</summary>
      <p>
        Download the whole list (every level):{' '}
        <a data-testid="options-export" href={`${contextPath}${listPath}/export?format=csv`} download>
          CSV
        </a>{' '}
        ·{' '}
        <a data-testid="options-export-json" href={`${contextPath}${listPath}/export?format=json`} download>
          JSON
        </a>
      </p>
      <label class="block">
        Import a file in the same shape (CSV or JSON); you see the changes before anything is written
        <input
          type="file"
          data-testid="options-import"
          accept=".csv,.json,text/csv,application/json"
          onChange={(e) => {
            const chosen = e.currentTarget.files?.[0];
            setFile(chosen);
            void run(chosen, allowDelete);
          }}
        />
      </label>
      <label class="check">
        <input type="checkbox" data-testid="sync-allow-delete" checked={allowDelete} onChange={(e) => (setAllowDelete(e.currentTarget.checked), void run(file, e.currentTarget.checked))} />
        Delete options that are not in the file
      </label>
      <ErrorMessage error={error} />
      {busy && <p class="muted">Working…</p>}
      {done && (
        <p class="success" role="status" data-testid="sync-done">
          {done}
        </p>
      )}
      {preview && (
        <div data-testid="sync-preview" class="sync-preview" aria-live="polite">
          <p>{changes === 0 ? 'The file matches the list: nothing to change.' : `${changes} change${changes === 1 ? '' : 's'}:`}</p>
          {KINDS.map(({ key, title }) =>
            preview[key].length === 0 ? null : (
              <section key={key} data-kind={key}>
                <h3>
                  {title} ({preview[key].length})
                </h3>
                <ul>
                  {preview[key].slice(0, 200).map((c, i) => (
                    <li key={i}>{describe(key, c)}</li>
                  ))}
                  {preview[key].length > 200 && <li class="muted">… and {preview[key].length - 200} more</li>}
                </ul>
              </section>
            ),
          )}
          <button type="button" class="primary" data-testid="sync-apply" disabled={busy || changes === 0} onClick={() => void apply()}>
            Apply {changes} change{changes === 1 ? '' : 's'}
          </button>
        </div>
      )}
    </details>
  );
}
