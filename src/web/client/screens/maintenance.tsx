import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, errorText, FE, qs } from '../api.ts';
import { href } from '../router.ts';
import { useDebouncedGet } from '../debounced-get.ts';
import { Cell, ErrorMessage, FilterField, ListTable, Loading, InfoMessage, OrderField, Pager } from '../ui.tsx';
import { Time } from '../time.tsx';
import { askConfirm } from '../confirm.tsx';
import { KIND_WORDS, useFieldNames } from './event-words.ts';
// The names M2 accepts. The server tells them only in its 400 answer, so the client shares the server's constants
// module (plain strings, no server dependency; it adds a few hundred bytes to the bundle).
import { ACTION, ACTION_NAMES, JOB, JOB_NAMES } from '../../../fieldeditor/maintenance/jobs/job-names.ts';

const M = `${FE}/maintenance`;

/** The maintenance area (administrators; the API answers 403 to anyone else, and the screen shows that answer). */
export function MaintenanceScreen({ view }: { view: string | undefined }) {
  const events = view === 'events';
  return (
    <section aria-labelledby="maintenance-title">
      <h1 id="maintenance-title">Maintenance</h1>
      <nav class="tabs" aria-label="Maintenance">
        <a href={href('maintenance')} data-testid="maintenance-tab-jobs" aria-current={events ? undefined : 'page'}>
          Jobs
        </a>
        <a href={href('maintenance', 'events')} data-testid="maintenance-tab-events" aria-current={events ? 'page' : undefined}>
          Event log
        </a>
      </nav>
      {events ? <EventLogView /> : view === undefined ? <JobsView /> : <ErrorMessage error="There is no such screen." />}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Jobs (M1, M2)

interface JobEntry {
  name: string;
  status: 'SCHEDULED' | 'RUNNING' | 'SUCCESS' | 'FAILED';
  scheduledTime: string | null;
  finishedTime: string | null;
  startedTime?: string | null;
  node?: string | null;
  message?: string | null;
  runs?: number;
}
interface Paged<T> {
  startAt: number;
  maxResults: number;
  total: number;
  values: T[];
}

/** A 401 or 403: the view then shows that answer alone. */
const refused = (e: unknown) => e instanceof ApiError && (e.status === 401 || e.status === 403);

interface About {
  label: string;
  /** Asked before an action that cannot be undone: what it removes. */
  confirm?: string;
  /** Said once it is done. */
  done?: string;
}

/** What each M2 name does (docs/maintenance.md); a name the client does not know yet is offered under its own name. */
const ABOUT: Record<string, About> = {
  [JOB.indexSearchTable]: { label: 'Rebuild the field search table' },
  [JOB.runDataMigrationTasks]: { label: 'Run the data tasks not run yet' },
  [JOB.truncateEventLog]: { label: 'Truncate the event log now (by the schedule’s age)' },
  [JOB.pruneAuthFailures]: { label: 'Prune old failed-login counters' },
  [ACTION.forceFail]: {
    label: 'Force-fail every scheduled and running job',
    confirm: 'Every scheduled and running job is set to failed. A run that is still alive stops at its next lease renewal; stuck jobs can then be scheduled again.',
    done: 'Every scheduled and running job is now marked as failed.',
  },
  [ACTION.deleteEventsOlderThanOneMonth]: {
    label: 'Delete event-log entries older than one month',
    confirm: 'Every event-log entry older than one calendar month is deleted, with the webhook delivery history of that age. This cannot be undone.',
    done: 'The event-log entries older than one month are deleted.',
  },
  [ACTION.deleteAllEvents]: {
    label: 'Delete all event-log entries',
    confirm: 'Every event-log entry is deleted: the whole audit trail of options, grants, users and jobs. This cannot be undone.',
    done: 'Every event-log entry is deleted.',
  },
};

const JOB_PAGE = 20;
const JOB_ORDERS = [
  ['+name', 'Name A → Z'],
  ['-scheduledTime', 'Recently scheduled first'],
  ['-finishedTime', 'Recently finished first'],
  ['+status', 'Status'],
] as const;
const JOB_COLUMNS = ['Job', 'Status', 'Scheduled', 'Started', 'Finished', 'Message'];
const POLL_MS = 1500;
const POLLS = 40;
const active = (j: JobEntry) => j.status === 'SCHEDULED' || j.status === 'RUNNING';

function JobsView() {
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState('+name');
  const [startAt, setStartAt] = useState(0);
  const [denied, setDenied] = useState(false);
  const [version, setVersion] = useState(0);
  // How many more times the list is read again while a job is scheduled or running.
  const [polls, setPolls] = useState(POLLS);
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const path = `${M}/jobs${qs({ startAt, maxResults: JOB_PAGE, filter, orderBy: order })}`;
  const onError = (e: unknown) => setDenied(refused(e));
  const { data: page, error, setError } = useDebouncedGet<Paged<JobEntry>>(path, version, onError);

  useEffect(() => {
    if (!page || polls <= 0 || !page.values.some(active)) return;
    const timer = setTimeout(() => (setPolls((n) => n - 1), setVersion((v) => v + 1)), POLL_MS);
    return () => clearTimeout(timer);
  }, [page]);

  const run = async (name: string) => {
    const about = ABOUT[name];
    const label = about?.label ?? name;
    if (about?.confirm && !(await askConfirm({ title: `${label}?`, message: about.confirm, confirmLabel: label }))) return;
    setBusy(name);
    setNotice(undefined);
    try {
      const answer = await api<Partial<JobEntry>>('POST', `${M}/operations`, { name });
      setNotice(
        answer.status === undefined
          ? (about?.done ?? `Done: ${label}.`)
          : answer.status === 'SCHEDULED'
            ? `Scheduled: ${label}. The list below follows it.`
            : `Already ${answer.status.toLowerCase()}: ${label}. The list below follows it.`,
      );
      setError(undefined);
    } catch (e) {
      setError(errorText(e));
    }
    setBusy(undefined);
    setPolls(POLLS);
    setVersion((v) => v + 1);
  };

  if (denied) return <ErrorMessage error={error} />;
  const button = (name: string, action: boolean) => {
    const verb = action ? 'Run' : 'Schedule';
    const label = ABOUT[name]?.label ?? name;
    return (
      <li key={name}>
        <button
          type="button"
          class={`small${ABOUT[name]?.confirm ? ' danger' : ''}`}
          data-testid="operation-run"
          data-operation={name}
          aria-label={`${verb}: ${label}`}
          disabled={busy !== undefined}
          onClick={() => void run(name)}
        >
          {verb}
        </button>{' '}
        {label}
      </li>
    );
  };

  return (
    <>
      <div class="card">
        <h2>Run an operation</h2>
        <p class="muted">A job is scheduled and runs in the background on one node; an action runs at once.</p>
        <div class="operations">
          <div>
            <h3>Jobs</h3>
            <ul class="plain">{JOB_NAMES.map((n) => button(n, false))}</ul>
          </div>
          <div>
            <h3>Actions</h3>
            <ul class="plain">{ACTION_NAMES.map((n) => button(n, true))}</ul>
          </div>
        </div>
        {notice && (
          <p class="muted" role="status" data-testid="operation-notice">
            {notice}
          </p>
        )}
      </div>
      <h2>Jobs</h2>
      <div class="toolbar">
        <FilterField value={filter} onInput={(v) => (setFilter(v), setStartAt(0))} />
        <OrderField value={order} orders={JOB_ORDERS} onChange={(v) => (setOrder(v), setStartAt(0))} />
        <button type="button" data-testid="jobs-refresh" onClick={() => (setPolls(POLLS), setVersion((v) => v + 1))}>
          Refresh
        </button>
      </div>
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {page && page.total === 0 && <InfoMessage>No job has been scheduled yet.</InfoMessage>}
      {page && page.values.length > 0 && (
        <ListTable class="list stack" columns={JOB_COLUMNS}>
          {page.values.map((j) => (
            <tr key={j.name} data-testid="job-row" data-job-name={j.name} data-status={j.status}>
              <Cell label="Job">
                <span class="name">{ABOUT[j.name]?.label ?? j.name}</span>
                {j.runs !== undefined && (
                  <>
                    {' '}
                    <span class="muted small-text">· {j.runs === 1 ? '1 run' : `${j.runs} runs`}</span>
                  </>
                )}
              </Cell>
              <Cell label="Status">
                <span class={`status status-${j.status.toLowerCase()}`} data-testid="job-status">
                  {j.status}
                </span>
              </Cell>
              <Cell label="Scheduled">
                <Time value={j.scheduledTime} />
              </Cell>
              <Cell label="Started">
                <Time value={j.startedTime} />
              </Cell>
              <Cell label="Finished">
                <Time value={j.finishedTime} />
              </Cell>
              <Cell label="Message" cls="message" title={j.node ? `node ${j.node}` : undefined}>
                {j.message || <span class="muted">—</span>}
              </Cell>
            </tr>
          ))}
        </ListTable>
      )}
      {page && page.total > page.maxResults && <Pager page={page} onStart={setStartAt} />}
    </>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The event log and its truncation schedule (M3)

interface EventEntry {
  id: number;
  time: string;
  actor: string;
  kind: string;
  fieldId: number | null;
  contextId: number | null;
  target: Record<string, unknown> | null;
  before: unknown;
  after: unknown;
}

interface Filters {
  from: string;
  to: string;
  kind: string;
  actor: string;
  fieldId: string;
}
const NO_FILTERS: Filters = { from: '', to: '', kind: '', actor: '', fieldId: '' };
/** Suggestions for the kind filter (docs/maintenance.md); any kind or family can be typed. */
const KINDS = ['option.*', 'default.*', 'context.*', 'grant.*', 'grants.replaced', 'settings.changed', 'job.*', 'jobs.force_failed', 'event_log.*', 'user.*', 'group.*', 'token.*'];
const EVENT_PAGE = 25;
const EVENT_COLUMNS = ['Time', 'User', 'Kind', 'Field / context', 'Target', 'Change'];

/** A `datetime-local` value (the reader's time zone) as the ISO instant the API takes. */
const instant = (local: string) => {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString();
};

function EventLogView() {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [startAt, setStartAt] = useState(0);
  const [page, setPage] = useState<Paged<EventEntry>>();
  const [error, setError] = useState<string>();
  const [denied, setDenied] = useState(false);
  const [version, setVersion] = useState(0);
  const names = useFieldNames([...new Set((page?.values ?? []).flatMap((e) => (e.fieldId === null ? [] : [e.fieldId])))]);

  useEffect(() => {
    let live = true;
    const query = qs({
      startAt,
      maxResults: EVENT_PAGE,
      from: instant(filters.from),
      to: instant(filters.to),
      kind: filters.kind.trim(),
      actor: filters.actor.trim(),
      fieldId: filters.fieldId.trim(),
    });
    api<Paged<EventEntry>>('GET', `${M}/event_log_entries${query}`).then(
      (p) => live && (setPage(p), setError(undefined)),
      (e) => live && (setPage(undefined), setError(errorText(e)), setDenied(refused(e))),
    );
    return () => {
      live = false;
    };
  }, [filters, startAt, version]);

  if (denied) return <ErrorMessage error={error} />;

  const bind = (key: keyof Filters) => ({ value: draft[key], onInput: (e: Event) => setDraft({ ...draft, [key]: (e.currentTarget as HTMLInputElement).value }) });
  const apply = (e: Event) => {
    e.preventDefault();
    setFilters(draft);
    setStartAt(0);
    setVersion((v) => v + 1);
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
    setStartAt(0);
  };

  return (
    <>
      <TruncateSchedule />
      <h2>Event log</h2>
      <form class="card filter-form" onSubmit={apply} aria-label="Event log filters">
        <label>
          From (your time)
          <input type="datetime-local" step={1} data-testid="event-filter-from" {...bind('from')} />
        </label>
        <label>
          Until (exclusive)
          <input type="datetime-local" step={1} data-testid="event-filter-to" {...bind('to')} />
        </label>
        <label>
          Kind
          <input type="text" list="event-kinds" placeholder="option.*, job.finished" data-testid="event-filter-kind" {...bind('kind')} />
        </label>
        <label>
          User
          <input type="text" placeholder="alice or system" data-testid="event-filter-actor" {...bind('actor')} />
        </label>
        <label>
          Field id
          <input type="text" inputMode="numeric" placeholder="10000" data-testid="event-filter-field" {...bind('fieldId')} />
        </label>
        <datalist id="event-kinds">
          {KINDS.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        <div class="buttons">
          <button type="submit" class="primary" data-testid="event-filter-apply">
            Apply
          </button>
          <button type="button" data-testid="event-filter-clear" onClick={clear}>
            Clear
          </button>
        </div>
      </form>
      <ErrorMessage error={error} />
      {!page && !error && <Loading />}
      {page && page.total === 0 && <InfoMessage>No entry matches.</InfoMessage>}
      {page && page.values.length > 0 && (
        <>
          <Pager page={page} onStart={setStartAt} />
          <ListTable class="list stack events" columns={EVENT_COLUMNS}>
            {page.values.map((e) => (
              <tr key={e.id} data-testid="event-row" data-event-id={e.id} data-kind={e.kind} data-actor={e.actor}>
                <Cell label="Time">
                  <Time value={e.time} />
                </Cell>
                <Cell label="User" testId="event-actor">
                  {e.actor}
                </Cell>
                <Cell label="Kind">
                  <span data-testid="event-kind" data-kind={e.kind} title={e.kind}>
                    {KIND_WORDS[e.kind] ?? e.kind}
                  </span>
                </Cell>
                <Cell label="Field / context">
                  {e.fieldId === null ? (
                    <span class="muted">—</span>
                  ) : (
                    <>
                      <a href={href('admin', e.fieldId)}>{names.field(e.fieldId)}</a>
                      {e.contextId !== null && <span> / {names.context(e.contextId)}</span>}
                    </>
                  )}
                </Cell>
                <Cell label="Target">{targetText(e, names.context)}</Cell>
                <Cell label="Change" cls="change">
                  <Change before={e.before} after={e.after} />
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

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const short = (v: unknown): string => {
  if (v === undefined) return '∅';
  const s = typeof v === 'string' ? `“${v}”` : JSON.stringify(v);
  return s.length > 70 ? `${s.slice(0, 67)}…` : s;
};

/** The option's name of an option entry (after the change, or before a deletion). */
const optionName = (e: EventEntry): string | undefined => {
  for (const side of [e.after, e.before]) if (isObj(side) && typeof side.optionvalue === 'string') return side.optionvalue;
  return undefined;
};

/**
 * What an entry changed, by name where the entry carries one: `option “Medium”`, `user bob`, `context Bugs`,
 * the job's label; otherwise its type and members (`setting eventLogTruncateSchedule`).
 */
function targetText(e: EventEntry, contextName: (id: number) => string): string {
  const t = e.target;
  if (!t) return '—';
  const option = optionName(e);
  if ((t.type === 'option' || t.type === 'childOption') && option !== undefined) return `${t.type === 'option' ? 'option' : 'child option'} “${option}”`;
  if (t.type === 'context' && typeof t.id === 'number') return `context ${contextName(t.id)}`;
  if (t.type === 'job' && typeof t.name === 'string') return ABOUT[t.name]?.label ?? String(t.name);
  if (t.type === 'token') return `token ${String(t.name)} of ${String(t.owner)}`;
  const parts = Object.entries(t)
    .filter(([k, v]) => k !== 'type' && v !== null && v !== undefined)
    .map(([k, v]) => (['id', 'name', 'key'].includes(k) ? short(v).replace(/^“|”$/g, '') : `${k} ${short(v).replace(/^“|”$/g, '')}`));
  return [String(t.type ?? ''), ...parts].join(' ').trim() || '—';
}

/** The members that changed (`optionvalue: “Medium” → “Normal”`), or what was created or removed; the JSON on demand. */
export function changeLines(before: unknown, after: unknown): string[] {
  if (before === null && after === null) return [];
  if (isObj(before) && isObj(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const lines = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).map((k) => `${k}: ${short(before[k])} → ${short(after[k])}`);
    return lines.length > 0 ? lines : ['no change'];
  }
  if (before === null && isObj(after)) return Object.entries(after).map(([k, v]) => `+ ${k}: ${short(v)}`);
  if (after === null && isObj(before)) return Object.entries(before).map(([k, v]) => `− ${k}: ${short(v)}`);
  return [`${short(before)} → ${short(after)}`];
}

function Change({ before, after }: { before: unknown; after: unknown }) {
  const lines = changeLines(before, after);
  if (lines.length === 0) return <span class="muted">—</span>;
  return (
    <>
      <ul class="plain changes">
        {lines.slice(0, 6).map((l, i) => (
          <li key={i}>{l}</li>
        ))}
        {lines.length > 6 && <li class="muted">… {lines.length - 6} more</li>}
      </ul>
      <details>
        <summary>Before / after</summary>
        <pre>{`before: ${JSON.stringify(before, null, 1)}\nafter: ${JSON.stringify(after, null, 1)}`}</pre>
      </details>
    </>
  );
}

interface Schedule {
  enabled: boolean;
  olderThanDays: number;
}

/** M3: whether the event log is truncated on every schedule tick, and from which age. */
function TruncateSchedule() {
  const [saved, setSaved] = useState<Schedule>();
  const [enabled, setEnabled] = useState(false);
  const [days, setDays] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const show = (s: Schedule) => {
    setSaved(s);
    setEnabled(s.enabled);
    setDays(String(s.olderThanDays));
  };
  useEffect(() => {
    api<Schedule>('GET', `${M}/event_log_entries/truncate_schedule`).then(show, (e) => setError(errorText(e)));
  }, []);

  const save = async (e: Event) => {
    e.preventDefault();
    setNotice(undefined);
    try {
      // Sent as typed, so the API's own validation message is what the administrator reads.
      const olderThanDays = days.trim() === '' ? null : Number(days);
      show(await api<Schedule>('PUT', `${M}/event_log_entries/truncate_schedule`, { enabled, olderThanDays }));
      setError(undefined);
      setNotice('Saved.');
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form class="card schedule-form" onSubmit={save} noValidate aria-labelledby="truncate-title">
      <h2 id="truncate-title">Truncation schedule</h2>
      {saved === undefined && !error && <Loading />}
      {saved !== undefined && (
        <>
          <p class="muted">
            While enabled, every schedule tick (hourly by default) deletes the entries older than the given number of days.
            Now: <strong data-testid="truncate-current">{saved.enabled ? `enabled, older than ${saved.olderThanDays} days` : 'disabled'}</strong>.
          </p>
          <div class="inline-form">
            <label class="check">
              <input type="checkbox" data-testid="truncate-enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
              Truncate the event log
            </label>
            <label>
              Older than (days)
              <input
                type="number"
                data-testid="truncate-days"
                min={1}
                max={36500}
                value={days}
                aria-invalid={error ? 'true' : undefined}
                onInput={(e) => setDays(e.currentTarget.value)}
              />
            </label>
            <button type="submit" class="primary" data-testid="truncate-save">
              Save
            </button>
            {notice && (
              <span role="status" class="muted" data-testid="truncate-notice">
                {notice}
              </span>
            )}
          </div>
        </>
      )}
      <ErrorMessage error={error} />
    </form>
  );
}
