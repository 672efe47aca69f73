import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, errorText, qs } from '../api.ts';
import { go, href } from '../router.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import { ErrorMessage, ListTable, Loading, InfoMessage, Pager } from '../ui.tsx';
import { Time } from '../time.tsx';
import { askConfirm } from '../confirm.tsx';

// Webhooks (issue 28, docs/webhooks.md): the subscriptions with their status, a form to add one, and per
// subscription its delivery history with the redeliver and test buttons. Administrators only: the API answers
// anyone else 403, and the screen shows that answer.
const WH = '/rest/webhooks/1.0/webhook';
const EVENTS = [
  'option_created', 'option_renamed', 'option_disabled', 'option_enabled', 'option_moved', 'options_sorted',
  'option_deleted', 'default_changed', 'grants_changed', 'context_changed', 'job_finished',
] as const;

interface Webhook {
  id: number;
  name: string;
  url: string;
  events: string[];
  filters: { customFieldId: number | null; contextId: number | null };
  hasSecret: boolean;
  enabled: boolean;
  status: 'ok' | 'failing';
}
interface Delivery {
  id: number;
  identifier: string;
  webhookEvent: string;
  eventLogId: number | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created: string;
  lastAttempt: string | null;
  nextAttempt: string | null;
  responseStatus: number | null;
  durationMs: number | null;
  responseBody: string | null;
  error: string | null;
}
interface Page<T> {
  startAt: number;
  maxResults: number;
  total: number;
  values: T[];
}

export function WebhooksScreen({ id }: { id: string | undefined }) {
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      {id === undefined ? <WebhookList /> : <WebhookDetail id={id} />}
    </section>
  );
}

function Cell(p: { label: string; testId?: string; children: ComponentChildren }) {
  return (
    <td data-label={p.label} data-testid={p.testId}>
      <div>{p.children}</div>
    </td>
  );
}

const Status = ({ hook }: { hook: Webhook }) => (
  <span class={`status ${!hook.enabled ? '' : hook.status === 'failing' ? 'status-failed' : 'status-success'}`} data-testid="webhook-status">
    {!hook.enabled ? 'paused' : hook.status === 'failing' ? 'failing' : 'ok'}
  </span>
);

function WebhookList() {
  const [version, setVersion] = useState(0);
  const { data: hooks, error } = useDebouncedGet<Webhook[]>(WH, version);
  return (
    <>
      <p class="muted">Other systems are told of every option, default, grant and context change, signed and in order.</p>
      <ErrorMessage error={error} />
      {!hooks && !error && <Loading />}
      {hooks && hooks.length === 0 && <InfoMessage>No subscription yet.</InfoMessage>}
      {hooks && hooks.length > 0 && (
        <ListTable class="list stack" columns={['Name', 'URL', 'Events', 'Status']}>
          {hooks.map((h) => (
            <tr key={h.id} data-testid="webhook-row" data-webhook-id={h.id}>
              <Cell label="Name">
                <a href={href('webhooks', h.id)}>{h.name}</a>
              </Cell>
              <Cell label="URL">
                <code>{h.url}</code>
              </Cell>
              <Cell label="Events">{h.events.length === EVENTS.length ? 'all' : h.events.join(', ')}</Cell>
              <Cell label="Status">
                <Status hook={h} />
              </Cell>
            </tr>
          ))}
        </ListTable>
      )}
      {hooks && <NewWebhook onCreated={() => setVersion((v) => v + 1)} />}
    </>
  );
}

function NewWebhook({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [field, setField] = useState('');
  const [events, setEvents] = useState<string[]>([...EVENTS]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const filters = field.trim() === '' ? undefined : { customFieldId: field.trim() };
      await api('POST', WH, { name, url, events, filters, secret: secret === '' ? undefined : secret });
      setName('');
      setUrl('');
      setSecret('');
      setError(undefined);
      onCreated();
    } catch (err) {
      setError(errorText(err));
    }
    setBusy(false);
  };
  const toggle = (ev: string) => setEvents((list) => (list.includes(ev) ? list.filter((x) => x !== ev) : [...list, ev]));
  return (
    <form class="card" onSubmit={(e) => void submit(e)} data-testid="webhook-form">
      <h2>Add a subscription</h2>
      <label>
        Name <input required value={name} onInput={(e) => setName(e.currentTarget.value)} data-testid="webhook-name" />
      </label>
      <label>
        URL (on the server's webhook allowlist) <input required type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} data-testid="webhook-url" />
      </label>
      <label>
        Secret (signs each delivery; never shown again) <input type="password" value={secret} onInput={(e) => setSecret(e.currentTarget.value)} autoComplete="new-password" />
      </label>
      <label>
        Only the field (optional) <input value={field} placeholder="customfield_10000" onInput={(e) => setField(e.currentTarget.value)} />
      </label>
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <label key={ev} class="inline">
            <input type="checkbox" checked={events.includes(ev)} onChange={() => toggle(ev)} /> {ev}
          </label>
        ))}
      </fieldset>
      <ErrorMessage error={error} />
      <button type="submit" disabled={busy || events.length === 0} data-testid="webhook-create">
        Add
      </button>
    </form>
  );
}

const PAGE = 20;

function WebhookDetail({ id }: { id: string }) {
  const [version, setVersion] = useState(0);
  const [startAt, setStartAt] = useState(0);
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { data: hook, error: hookError } = useDebouncedGet<Webhook>(`${WH}/${id}`, version);
  const { data: page, error, setError } = useDebouncedGet<Page<Delivery>>(`${WH}/${id}/deliveries${qs({ startAt, maxResults: PAGE })}`, version);
  const act = async (what: string, fn: () => Promise<string>) => {
    setBusy(true);
    try {
      setNotice(await fn());
      setError(undefined);
    } catch (e) {
      setError(`${what}: ${errorText(e)}`);
    }
    setBusy(false);
    setVersion((v) => v + 1);
  };
  const outcome = (d: Delivery) => (d.status === 'delivered' ? `delivered (${d.responseStatus})` : `${d.status}: ${d.error ?? d.responseStatus}`);
  const test = () => act('Test event', async () => `Test event ${outcome(await api<Delivery>('POST', `${WH}/${id}/test`))}.`);
  const redeliver = (d: Delivery) => act('Redeliver', async () => `Redelivered: ${outcome(await api<Delivery>('POST', `${WH}/${id}/deliveries/${d.id}/redeliver`))}.`);
  const setEnabled = (h: Webhook, enabled: boolean) =>
    act(enabled ? 'Enable' : 'Pause', async () => {
      await api('PUT', `${WH}/${id}`, { name: h.name, url: h.url, events: h.events, filters: h.filters, enabled });
      return enabled ? 'Enabled: the changes made meanwhile are delivered now, in order.' : 'Paused: changes are kept and delivered once it is enabled again.';
    });
  const remove = async (h: Webhook) => {
    if (!(await askConfirm({ title: `Delete ${h.name}?`, message: 'Its queue and delivery history are deleted; nothing more is sent.', confirmLabel: 'Delete' }))) return;
    await act('Delete', async () => {
      await api('DELETE', `${WH}/${id}`);
      go('webhooks');
      return 'Deleted.';
    });
  };

  if (hookError) return <ErrorMessage error={hookError} />;
  if (!hook) return <Loading />;
  return (
    <>
      <p>
        <a href={href('webhooks')}>All subscriptions</a>
      </p>
      <div class="card">
        <h2 data-testid="webhook-title">
          {hook.name} <Status hook={hook} />
        </h2>
        <p>
          <code>{hook.url}</code> · {hook.hasSecret ? 'signed' : 'not signed'} · {hook.events.join(', ')}
        </p>
        {hook.status === 'failing' && <ErrorMessage error="A delivery was retried for the whole retry period and given up. Check the receiver, then redeliver what it missed." />}
        <div class="toolbar">
          <button type="button" disabled={busy} onClick={() => void test()} data-testid="webhook-test">
            Send a test event
          </button>
          <button type="button" disabled={busy} onClick={() => void setEnabled(hook, !hook.enabled)} data-testid="webhook-toggle">
            {hook.enabled ? 'Pause' : 'Enable'}
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => void remove(hook)} data-testid="webhook-delete">
            Delete
          </button>
          <button type="button" onClick={() => setVersion((v) => v + 1)}>
            Refresh
          </button>
        </div>
        {notice && (
          <p class="muted" role="status" data-testid="webhook-notice">
            {notice}
          </p>
        )}
      </div>
      <h2>Deliveries</h2>
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {page && page.total === 0 && <InfoMessage>Nothing delivered yet.</InfoMessage>}
      {page && page.values.length > 0 && (
        <>
          <ListTable class="list stack" columns={['Event', 'Status', 'Attempts', 'Last attempt', 'Answer', 'Duration', '']}>
            {page.values.map((d) => (
              <tr key={d.id} data-testid="delivery-row" data-status={d.status}>
                <Cell label="Event">
                  {d.webhookEvent}
                  {d.eventLogId !== null && <span class="muted small-text"> · entry {d.eventLogId}</span>}
                </Cell>
                <Cell label="Status">
                  <span class={`status status-${d.status === 'delivered' ? 'success' : d.status === 'failed' ? 'failed' : 'running'}`}>{d.status}</span>
                  {d.nextAttempt && (
                    <span class="muted small-text">
                      {' '}
                      · next <Time value={d.nextAttempt} />
                    </span>
                  )}
                </Cell>
                <Cell label="Attempts">{d.attempts}</Cell>
                <Cell label="Last attempt">
                  <Time value={d.lastAttempt} />
                </Cell>
                <Cell label="Answer">
                  {d.responseStatus ?? '—'} <span class="muted small-text">{d.error ?? d.responseBody?.slice(0, 120)}</span>
                </Cell>
                <Cell label="Duration">{d.durationMs === null ? '—' : `${d.durationMs} ms`}</Cell>
                <Cell label="">
                  <button type="button" class="small" disabled={busy} onClick={() => void redeliver(d)} data-testid="delivery-redeliver">
                    Redeliver
                  </button>
                </Cell>
              </tr>
            ))}
          </ListTable>
          <Pager page={page} onStart={setStartAt} />
        </>
      )}
    </>
  );
}
