// The events a subscription can ask for, and how an entry of the field editor's event log becomes one
// (docs/webhooks.md, "Events"). Entries of other kinds (settings, job scheduling, the log's own truncation) are
// not delivered.

export const WEBHOOK_EVENTS = [
  'option_created',
  'option_renamed',
  'option_disabled',
  'option_enabled',
  'option_moved',
  'options_sorted',
  'option_deleted',
  'default_changed',
  'grants_changed',
  'context_changed',
  'job_finished',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Event-log kinds (docs/maintenance.md) → the event they are delivered as. */
const BY_KIND: Record<string, WebhookEvent> = {
  'option.created': 'option_created',
  'option.renamed': 'option_renamed',
  // Value and state changed in one request: delivered as a rename whose `before`/`option` show both states.
  'option.updated': 'option_renamed',
  'option.disabled': 'option_disabled',
  'option.enabled': 'option_enabled',
  'option.moved': 'option_moved',
  'option.sorted': 'options_sorted',
  'option.deleted': 'option_deleted',
  'default.set': 'default_changed',
  'default.deleted': 'default_changed',
  'grants.replaced': 'grants_changed',
  'grant.granted': 'grants_changed',
  'grant.revoked': 'grants_changed',
  // A deleted user's or group's grants go with it.
  'user.deleted': 'grants_changed',
  'group.deleted': 'grants_changed',
  'context.created': 'context_changed',
  'context.updated': 'context_changed',
  'context.deleted': 'context_changed',
  'job.finished': 'job_finished',
};

/** The event-log kinds delivered at all (the producer reads only these). */
export const DELIVERED_KINDS: readonly string[] = Object.keys(BY_KIND);

/** Each delivered kind with the event it is delivered as (the same table, for a query that matches them in SQL). */
export const KIND_EVENTS: readonly (readonly [kind: string, event: WebhookEvent])[] = Object.entries(BY_KIND);

/** The kinds that one subscription's events come from. */
export function kindsOf(events: readonly string[]): string[] {
  return DELIVERED_KINDS.filter((k) => events.includes(BY_KIND[k]!));
}

export function eventOf(kind: string): WebhookEvent | undefined {
  return BY_KIND[kind];
}

/** An event-log entry as the producer reads it. */
export interface LogEntry {
  id: number;
  time: Date;
  actor: string;
  kind: string;
  fieldId: number | null;
  contextId: number | null;
  target: Record<string, unknown>;
  before: unknown;
  after: unknown;
}

/**
 * The body of a delivery, without `timestamp` (added at each attempt, see webhook-sender.ts). Option events
 * carry the option after the change as `option` and before it as `before` (a created option has no `before`, a
 * deleted one no `option`, `before` listing `deletedIds`); the others carry the entry's own `before`/`after`. `eventLogId` identifies the
 * change; `changeKind` is the log's finer kind (`default.deleted`, `grant.revoked` …).
 */
export function payloadOf(entry: LogEntry, event: WebhookEvent): Record<string, unknown> {
  const base: Record<string, unknown> = {
    webhookEvent: event,
    eventLogId: entry.id,
    changeKind: entry.kind,
    time: entry.time.toISOString(),
    user: { name: entry.actor },
    customFieldId: entry.fieldId,
    contextId: entry.contextId,
    target: entry.target,
  };
  if (event.startsWith('option_')) {
    if (event !== 'option_deleted') base.option = entry.after ?? null;
    if (event !== 'option_created') base.before = entry.before ?? null;
    // A deletion that changed the default value says so: `after` is `{defaultOptionIds}` then.
    if (event === 'option_deleted') base.after = entry.after ?? null;
    return base;
  }
  return { ...base, before: entry.before ?? null, after: entry.after ?? null };
}

/** The body of a test event ("send a test event"): no event-log entry behind it. */
export function testPayload(webhookId: number, actor: string): Record<string, unknown> {
  return { webhookEvent: 'test', eventLogId: null, time: new Date().toISOString(), user: { name: actor }, webhookId, customFieldId: null, contextId: null };
}
