import type { Knex } from 'knex';
import { importPart } from '../../platform/import/import-part.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { badRequest } from '../../platform/http/app-error.ts';
import { POSITION_GAP } from '../shared/fieldeditor.model.ts';
import { defaultKindOf, valueKey, type DefaultKind } from './options.model.ts';
import { isMultiLevel } from '../access/field-kinds.ts';
import { findFieldForImport, findContextIdForImport } from '../access/fields.repository.ts';
import { findByValue, insertOptions, listKeys, lockList, syncOptionIdSequence, type ListKey } from './options.repository.ts';
import { hasDefault, insertDefault } from './defaults.repository.ts';
import { importDefaults, importOptions, type ImportOptionNode } from './options-import.schema.ts';

const CHUNK = 500;

interface Target {
  field: { id: number; typeKey: string };
  kind: DefaultKind;
  contextId: number;
}

/** Field (by id or name) and context (id, name or `default`, the default) of one import entry. */
async function resolveTarget(
  trx: Knex,
  where: string,
  e: { fieldId?: number; fieldName?: string; context?: number | string },
): Promise<Target> {
  const field = await findFieldForImport(trx, e);
  if (!field) throw badRequest(`${where}: the field ${e.fieldId ?? e.fieldName} does not exist.`);
  const ref = { id: field.id, typeKey: field.type_key };
  const kind = defaultKindOf(ref);
  if (!kind) throw badRequest(`${where}: the field ${field.id} is not a select-type field.`);
  const c = e.context ?? 'default';
  const contextId = await findContextIdForImport(trx, field.id, c);
  if (contextId === undefined) throw badRequest(`${where}: the field ${field.id} has no context ${String(c)}.`);
  return { field: ref, kind, contextId };
}

/**
 * One sibling list: values already there (same value without regard to case) are kept and counted as
 * skipped, new ones are appended in batches, then each node's children are imported under it.
 */
async function importList(
  trx: Knex.Transaction,
  t: Target,
  list: ListKey,
  depth: number,
  nodes: ImportOptionNode[],
  counts: { created: number; skipped: number },
  where: string,
): Promise<void> {
  await lockList(trx, list);
  const existing = await listKeys(trx, list);
  const idByKey = new Map(existing.map((r) => [r.value_key, r.id] as const));
  // New options go after the last one, POSITION_GAP apart (see the migration).
  let position = existing.reduce((m, r) => Math.max(m, Number(r.position) + POSITION_GAP), 0);
  const fresh: Record<string, unknown>[] = [];
  for (const n of nodes) {
    const key = valueKey(n.value);
    if (idByKey.has(key)) {
      counts.skipped++;
      continue;
    }
    idByKey.set(key, 0);
    fresh.push({
      ...(n.id === undefined ? {} : { id: n.id }),
      field_id: t.field.id,
      context_id: list.contextId,
      parent_id: list.parentId,
      value: n.value,
      value_key: key,
      position: (position += POSITION_GAP) - POSITION_GAP,
      disabled: n.disabled ?? false,
    });
  }
  for (let i = 0; i < fresh.length; i += CHUNK) {
    const rows = await insertOptions(trx, fresh.slice(i, i + CHUNK));
    for (const r of rows) idByKey.set(r.value_key, r.id);
    counts.created += rows.length;
  }
  for (const n of nodes) {
    if (!n.children || n.children.length === 0) continue;
    if (t.kind !== 'cascading' || (depth >= 1 && !isMultiLevel(t.field))) {
      throw badRequest(`${where}: "${n.value}" cannot have child options (field type or depth).`);
    }
    const parentId = idByKey.get(valueKey(n.value)) ?? 0;
    await importList(trx, t, { contextId: list.contextId, parentId }, depth + 1, n.children, counts, where);
  }
}

/** `options` section: option lists per field and context, after the fields and contexts exist. */
export const optionsImport = importPart({ options: importOptions }, [TRACKER_TOPIC], async (trx, doc, { progress, summary }) => {
  const counts = (summary.options = { created: 0, skipped: 0 });
  const entries = doc.options ?? [];
  for (const [i, e] of entries.entries()) {
    const where = `options[${i}]`;
    const t = await resolveTarget(trx, where, e);
    await importList(trx, t, { contextId: t.contextId, parentId: null }, 0, e.options, counts, where);
    progress(`options: list ${i + 1} of ${entries.length} (${counts.created} created)`);
  }
  if (counts.created > 0) {
    await syncOptionIdSequence(trx);
  }
});

/** `defaults` section: default values named by option value, for contexts that have none yet. */
export const defaultsImport = importPart({ defaults: importDefaults }, [TRACKER_TOPIC], async (trx, doc, { summary }) => {
  const counts = (summary.defaults = { created: 0, skipped: 0 });
  for (const [i, e] of (doc.defaults ?? []).entries()) {
    const where = `defaults[${i}]`;
    const t = await resolveTarget(trx, where, e);
    const find = async (value: string, parentId: number | null) => {
      const row = await findByValue(trx, { contextId: t.contextId, parentId }, value.trim());
      if (!row || row.disabled) throw badRequest(`${where}: no enabled option "${value}" in that list.`);
      return row.id;
    };
    const ids: number[] = [];
    if (t.kind === 'multi') {
      for (const v of e.values ?? []) ids.push(await find(v, null));
    } else if (e.value !== undefined) {
      const parent = await find(e.value, null);
      ids.push(parent);
      if (t.kind === 'cascading' && e.childValue !== undefined) ids.push(await find(e.childValue, parent));
    }
    await lockList(trx, { contextId: t.contextId, parentId: null });
    // Like every import section: what exists is kept, so a context that has a default keeps it.
    if (await hasDefault(trx, t.contextId)) {
      counts.skipped++;
      continue;
    }
    const unique = [...new Set(ids)];
    await insertDefault(trx, t.contextId, unique);
    counts.created++;
  }
});
