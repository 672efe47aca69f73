import { useEffect, useState } from 'preact/hooks';
import { api, FE } from '../api.ts';
import type { FieldRecord } from '../fieldeditor.ts';

/** The events a subscription can take (docs/webhooks.md), each in words; the wire name is in the tooltip. */
export const EVENT_WORDS: Record<string, string> = {
  option_created: 'Option added',
  option_renamed: 'Option renamed',
  option_disabled: 'Option disabled',
  option_enabled: 'Option enabled',
  option_moved: 'Option moved',
  options_sorted: 'Options sorted',
  option_deleted: 'Option deleted',
  default_changed: 'Default value changed',
  grants_changed: 'Editors changed',
  context_changed: 'Context changed',
  job_finished: 'Maintenance job finished',
  test: 'Test event',
};
export const EVENTS = Object.keys(EVENT_WORDS).filter((e) => e !== 'test');

export const eventWords = (event: string): string => EVENT_WORDS[event] ?? event;

/** A subscription's events in words: "every event", or the list. */
export const eventsWords = (events: string[]): string => (EVENTS.every((e) => events.includes(e)) ? 'every event' : events.map(eventWords).join(', '));

export interface FieldFilter {
  customFieldId: number | null;
  contextId: number | null;
}
export interface ContextName {
  contextId: number;
  contextName: string;
}

// One read of the fields serves every row of a screen (each row names its filter); read again after 10 s.
let fieldsRead: { at: number; list: Promise<FieldRecord[]> } | undefined;

/** Every field (A1 without parameters: the plain list), to name a filter's field. */
export function useFields(): FieldRecord[] | undefined {
  const [fields, setFields] = useState<FieldRecord[]>();
  useEffect(() => {
    if (!fieldsRead || Date.now() - fieldsRead.at > 10_000) fieldsRead = { at: Date.now(), list: api<FieldRecord[]>('GET', `${FE}/admin/customfields`).catch(() => []) };
    let live = true;
    void fieldsRead.list.then((list) => live && setFields(list));
    return () => {
      live = false;
    };
  }, []);
  return fields;
}

/** The contexts of one field (A5), for the context choice and to name a filter's context. */
export function useContextsOf(fieldId: number | null): ContextName[] | undefined {
  const [contexts, setContexts] = useState<ContextName[]>();
  useEffect(() => {
    setContexts(undefined);
    if (fieldId === null) return;
    api<ContextName[]>('GET', `${FE}/admin/customfields/${fieldId}/contexts`).then(setContexts, () => setContexts([]));
  }, [fieldId]);
  return contexts;
}

/** A filter in words: "every field", "Demo Single Select", "Demo Single Select, context DEMO project bugs". */
export function filterWords(filter: FieldFilter, fields: FieldRecord[] | undefined, contexts?: ContextName[]): string {
  if (filter.customFieldId === null) return 'every field';
  const field = fields?.find((f) => f.fieldId === filter.customFieldId)?.fieldName ?? `field ${filter.customFieldId}`;
  if (filter.contextId === null) return `${field} (every context)`;
  const context = contexts?.find((c) => c.contextId === filter.contextId)?.contextName ?? `context ${filter.contextId}`;
  return `${field}, context ${context}`;
}
