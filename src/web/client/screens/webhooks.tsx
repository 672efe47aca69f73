import { useState } from 'preact/hooks';
import { api, errorText, qs } from '../api.ts';
import { go, href } from '../router.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import { Cell, ErrorMessage, ListTable, Loading, InfoMessage, Pager, UrlCode } from '../ui.tsx';
import { Time } from '../time.tsx';
import { askConfirm } from '../confirm.tsx';
import { WebhookForm, WH, type WebhookFields } from './webhook-form.tsx';
import { eventsWords, eventWords, filterWords, useContextsOf, useFields } from './webhook-words.ts';

// Webhooks (issue 28, docs/webhooks.md): the subscriptions with their status, a form to add one, and per
// subscription its delivery history with the redeliver and test buttons. Administrators only: the API answers
// anyone else 403, and the screen shows that answer.
interface Webhook extends WebhookFields {
  hasSecret: boolean;
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
        <ListTable class="list stack" columns={['Name', 'URL', 'Field', 'Events', 'Status']}>
          {hooks.map((h) => (
            <tr key={h.id} data-testid="webhook-row" data-webhook-id={h.id}>
              <Cell label="Name">
                <a href={href('webhooks', h.id)}>{h.name}</a>
              </Cell>
              <Cell label="URL">
                <UrlCode url={h.url} />
              </Cell>
              <Cell label="Field" testId="webhook-row-field">
                <FilterName hook={h} />
              </Cell>
              <Cell label="Events">{eventsWords(h.events)}</Cell>
              <Cell label="Status">
                <Status hook={h} />
              </Cell>
            </tr>
          ))}
        </ListTable>
      )}
      {hooks && <WebhookForm onSaved={() => setVersion((v) => v + 1)} />}
    </>
  );
}

const PAGE = 20;

function WebhookDetail({ id }: { id: string }) {
  const [version, setVersion] = useState(0);
  const [startAt, setStartAt] = useState(0);
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
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
  if (editing)
    return (
      <WebhookForm
        initial={hook}
        onCancel={() => setEditing(false)}
        onSaved={() => (setEditing(false), setNotice('Saved. The delivery history is kept.'), setVersion((v) => v + 1))}
      />
    );
  return (
    <>
      <p>
        <a href={href('webhooks')}>All subscriptions</a>
      </p>
      <div class="card">
        <h2 data-testid="webhook-title">
          {hook.name} <Status hook={hook} />
        </h2>
        <dl class="facts">
          <dt>URL</dt>
          <dd>
            <UrlCode url={hook.url} /> ({hook.hasSecret ? 'signed' : 'not signed'})
          </dd>
          <dt>Field</dt>
          <dd data-testid="webhook-detail-field">
            <FilterName hook={hook} />
          </dd>
          <dt>Events</dt>
          <dd data-testid="webhook-detail-events">{eventsWords(hook.events)}</dd>
        </dl>
        {hook.status === 'failing' && <ErrorMessage error="A delivery was retried for the whole retry period and given up. Check the receiver, then redeliver what it missed." />}
        <div class="toolbar">
          <button type="button" disabled={busy} onClick={() => setEditing(true)} data-testid="webhook-edit">
            Edit
          </button>
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
                  <span title={d.webhookEvent}>{eventWords(d.webhookEvent)}</span>
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

/** The field filter of one subscription by name, with its context's name. */
function FilterName({ hook }: { hook: Webhook }) {
  const fields = useFields();
  const contexts = useContextsOf(hook.filters.customFieldId);
  // Until the names are read, an ellipsis: the ids that stand in for a deleted field or context would flash by.
  const loading = hook.filters.customFieldId !== null && (fields === undefined || (hook.filters.contextId !== null && contexts === undefined));
  if (loading) return <span aria-busy="true">…</span>;
  return <>{filterWords(hook.filters, fields, contexts)}</>;
}
