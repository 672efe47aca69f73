import { useEffect, useState } from 'preact/hooks';
import { api, errorText, qs } from '../api.ts';
import { shortType } from '../field-row.tsx';
import { ErrorMessage, UrlCode } from '../ui.tsx';
import { EVENTS, eventWords, useContextsOf, useFields, type FieldFilter } from './webhook-words.ts';

export const WH = '/rest/webhooks/1.0/webhook';
const ALLOWLIST = '/rest/webhooks/1.0/allowlist';

export interface WebhookFields {
  id: number;
  name: string;
  url: string;
  events: string[];
  filters: FieldFilter;
  enabled: boolean;
}

interface Check {
  allowlist: string[];
  url?: { allowed: boolean; reason?: string };
}

/** The allowlist (read-only, from the configuration) and the typed URL checked by the server as a save would. */
function useUrlCheck(url: string): Check | undefined {
  const [check, setCheck] = useState<Check>();
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api<Check>('GET', `${ALLOWLIST}${qs({ url: url.trim() || undefined })}`).then((c) => live && setCheck(c), () => undefined);
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [url]);
  return check;
}

/** The field filter chosen by name (A1's fields), then one of its contexts or every context. */
function FieldChoice({ value, onChange }: { value: FieldFilter; onChange: (f: FieldFilter) => void }) {
  const fields = useFields();
  const contexts = useContextsOf(value.customFieldId);
  const [text, setText] = useState('');
  const chosen = fields?.find((f) => f.fieldId === value.customFieldId);
  const needle = text.trim().toLowerCase();
  const matches = needle === '' ? [] : (fields ?? []).filter((f) => f.fieldName.toLowerCase().includes(needle)).slice(0, 8);
  if (value.customFieldId !== null)
    return (
      <div class="field-choice">
        <span class="picker-label">Only the field</span>
        <div class="inline-form">
          <span class="chip" data-testid="webhook-field-chosen">
            {chosen?.fieldName ?? `field ${value.customFieldId}`}
            <button type="button" class="small icon" aria-label="Any field instead" onClick={() => onChange({ customFieldId: null, contextId: null })}>
              ×
            </button>
          </span>
          <label class="inline">
            Context
            <select
              data-testid="webhook-context"
              value={value.contextId === null ? '' : String(value.contextId)}
              onChange={(e) => onChange({ customFieldId: value.customFieldId, contextId: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
            >
              <option value="">Every context</option>
              {(contexts ?? []).map((c) => (
                <option key={c.contextId} value={String(c.contextId)}>
                  {c.contextName}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
    );
  return (
    <div class="field-choice picker">
      <label>
        Only the field (optional: type a part of its name)
        <input type="search" data-testid="webhook-field" value={text} placeholder="Every field" onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      {needle !== '' && (
        <ul class="plain field-suggestions" aria-label="Fields">
          {matches.length === 0 && <li class="muted">No field matches.</li>}
          {matches.map((f) => (
            <li key={f.fieldId}>
              <button type="button" class="small" data-testid="webhook-field-option" onClick={() => (setText(''), onChange({ customFieldId: f.fieldId, contextId: null }))}>
                {f.fieldName} <span class="muted">({shortType(f.fieldType)})</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Adds a subscription, or edits one (PUT keeps its history and its queue; an empty secret keeps the current one).
 */
export function WebhookForm({ initial, onSaved, onCancel }: { initial?: WebhookFields; onSaved: () => void; onCancel?: () => void }) {
  const [name, setName] = useState(initial?.name ?? '');
  const [url, setUrl] = useState(initial?.url ?? '');
  const [secret, setSecret] = useState('');
  const [filter, setFilter] = useState<FieldFilter>(initial?.filters ?? { customFieldId: null, contextId: null });
  const [events, setEvents] = useState<string[]>(initial?.events ?? [...EVENTS]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const check = useUrlCheck(url);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const filters = filter.customFieldId === null ? undefined : filter;
      const body = { name, url, events, filters, secret: secret === '' ? undefined : secret, ...(initial ? { enabled: initial.enabled } : {}) };
      await (initial ? api('PUT', `${WH}/${initial.id}`, { ...body, filters: filters ?? { customFieldId: null, contextId: null } }) : api('POST', WH, body));
      if (!initial) {
        setName('');
        setUrl('');
        setFilter({ customFieldId: null, contextId: null });
      }
      setSecret('');
      setError(undefined);
      onSaved();
    } catch (err) {
      setError(errorText(err));
    }
    setBusy(false);
  };
  const toggle = (ev: string) => setEvents((list) => (list.includes(ev) ? list.filter((x) => x !== ev) : [...list, ev]));
  const urlState = url.trim() === '' || !check?.url ? undefined : check.url;
  return (
    <form class="card webhook-form" onSubmit={(e) => void submit(e)} data-testid="webhook-form">
      <h2>{initial ? `Edit ${initial.name}` : 'Add a subscription'}</h2>
      <label>
        Name <input required value={name} onInput={(e) => setName(e.currentTarget.value)} data-testid="webhook-name" />
      </label>
      <label>
        URL (on the webhook allowlist)
        <input
          required
          type="url"
          value={url}
          aria-invalid={urlState && !urlState.allowed ? true : undefined}
          aria-describedby="webhook-url-check"
          onInput={(e) => setUrl(e.currentTarget.value)}
          data-testid="webhook-url"
        />
      </label>
      <p id="webhook-url-check" class="url-check" aria-live="polite" data-testid="webhook-url-check">
        {urlState?.allowed === true && <span class="ok">✓ On the allowlist.</span>}
        {urlState?.allowed === false && <span class="bad">✗ {urlState.reason}</span>}
      </p>
      {check && (
        <div class="allowlist" data-testid="webhook-allowlist">
          <span class="picker-label">Allowed targets (WEBHOOK_ALLOWLIST, set by the operator):</span>
          {check.allowlist.length === 0 ? (
            <span> none: no subscription can be saved until the operator sets one.</span>
          ) : (
            <ul class="plain">
              {check.allowlist.map((entry) => (
                <li key={entry}>
                  <UrlCode url={entry} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <label>
        Secret (signs each delivery; never shown again{initial ? '; leave empty to keep the current one' : ''})
        <input type="password" value={secret} onInput={(e) => setSecret(e.currentTarget.value)} autoComplete="new-password" />
      </label>
      <FieldChoice value={filter} onChange={setFilter} />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <label key={ev} class="check" title={ev}>
            <input type="checkbox" checked={events.includes(ev)} onChange={() => toggle(ev)} /> {eventWords(ev)}
          </label>
        ))}
      </fieldset>
      <ErrorMessage error={error} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy || events.length === 0} data-testid={initial ? 'webhook-save' : 'webhook-create'}>
          {initial ? 'Save' : 'Add'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
