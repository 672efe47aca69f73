import { useEffect, useState } from 'preact/hooks';
import { api, FE } from '../api.ts';

/** The event log's kinds (docs/maintenance.md) in words; a kind not listed is shown as it is. */
export const KIND_WORDS: Record<string, string> = {
  'grants.replaced': 'Grants replaced',
  'grant.granted': 'Grant given',
  'grant.revoked': 'Grant revoked',
  'option.created': 'Option added',
  'option.renamed': 'Option renamed',
  'option.disabled': 'Option disabled',
  'option.enabled': 'Option enabled',
  'option.updated': 'Option changed',
  'option.moved': 'Option moved',
  'option.sorted': 'Options sorted',
  'option.deleted': 'Option deleted',
  'default.set': 'Default value set',
  'default.deleted': 'Default value removed',
  'context.created': 'Context created',
  'context.updated': 'Context changed',
  'context.deleted': 'Context deleted',
  'settings.changed': 'Settings changed',
  'user.created': 'User created',
  'user.updated': 'User changed',
  'user.deleted': 'User deleted',
  'user.password_set': 'Password reset by an administrator',
  'user.password_changed': 'Password changed by the user',
  'user.unlocked': 'User unlocked',
  'group.created': 'Group created',
  'group.deleted': 'Group deleted',
  'group.member_added': 'Member added',
  'group.member_removed': 'Member removed',
  'token.created': 'Access token created',
  'token.revoked': 'Access token revoked',
  'job.scheduled': 'Job scheduled',
  'job.finished': 'Job finished',
  'jobs.force_failed': 'Jobs force-failed',
  'event_log.truncated': 'Event log truncated',
  'event_log.deleted': 'Event-log entries deleted',
};

interface Names {
  fields: Map<number, string>;
  contexts: Map<number, string>;
}

/**
 * Names for the ids the event log holds: every field's name (A1's plain list, once), and the context names of the
 * fields in `fieldIds` (A5, once per field). An id whose thing is gone keeps its number.
 */
export function useFieldNames(fieldIds: readonly number[]) {
  const [names, setNames] = useState<Names>({ fields: new Map(), contexts: new Map() });
  const [asked] = useState(() => new Set<number>());
  useEffect(() => {
    api<{ fieldId: number; fieldName: string }[]>('GET', `${FE}/admin/customfields`).then(
      (fields) => setNames((n) => ({ ...n, fields: new Map(fields.map((f) => [f.fieldId, f.fieldName])) })),
      () => undefined,
    );
  }, []);
  const wanted = fieldIds.filter((id) => !asked.has(id));
  useEffect(() => {
    for (const id of wanted) {
      asked.add(id);
      api<{ contextId: number; contextName: string }[]>('GET', `${FE}/admin/customfields/${id}/contexts`).then(
        (cs) => setNames((n) => ({ ...n, contexts: new Map([...n.contexts, ...cs.map((c) => [c.contextId, c.contextName] as const)]) })),
        () => undefined,
      );
    }
  }, [wanted.join(',')]);
  return {
    field: (id: number) => names.fields.get(id) ?? `field ${id}`,
    context: (id: number) => names.contexts.get(id) ?? `context ${id}`,
  };
}
