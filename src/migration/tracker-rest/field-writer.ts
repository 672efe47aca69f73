// Writes a source field and its contexts inside the field's transaction. The field is found by its migration
// record, else adopted when our field of the same id has the same name and type, else created: with the
// source's id where that is free, otherwise with a new one (mapped and reported). Contexts likewise, the
// default context paired with ours. Projects and issue types a context names are matched by key and name,
// and created when missing, so the context's scope reads the same here.
import type { Knex } from 'knex';
import { migrationRecords, fingerprintOf } from '../migration-records.repository.ts';
import { shortFieldType } from '../../tracker/field-types.ts';
import { trackerImportPort as tracker } from '../../tracker/tracker-import-port.ts';
import type { SourceContext, SourceMaxIds, SourceTrackerField } from './tracker-model.ts';
import type { UnitTally } from './unit-tally.ts';

export const TRACKER_SOURCE = 'tracker';

export interface WrittenField {
  id: number;
  typeKey: string;
  /** Source context id → ours. */
  contexts: Map<number, number>;
}

/** `max`: the run's largest source ids (a new id is given past them, see SourceMaxIds). */
export async function writeFieldAndContexts(trx: Knex.Transaction, src: SourceTrackerField, tally: UnitTally, max: SourceMaxIds): Promise<WrittenField> {
  const maxContextId = src.contexts.reduce((m, c) => Math.max(m, c.id), max.context);
  const fieldId = await writeField(trx, src, tally, { field: max.field, context: maxContextId });
  const contexts = new Map<number, number>();
  const records = await migrationRecords.findMany(trx, TRACKER_SOURCE, 'context', src.contexts.map((c) => String(c.id)));
  for (const c of src.contexts) {
    const local = await tracker.contextsOf(trx, fieldId);
    const recorded = records.get(String(c.id));
    let row = recorded ? local.find((l) => l.id === Number(recorded.local_id)) : undefined;
    row ??= c.isDefault ? local.find((l) => l.is_default) : local.find((l) => l.id === c.id || l.name.toLowerCase() === c.name.toLowerCase());
    if (row) {
      const renamed = row.name !== c.name || row.description !== c.description;
      if (renamed) await tracker.updateContext(trx, row.id, { name: c.name, description: c.description });
      const rescoped = !c.isDefault && (await writeScope(trx, fieldId, row.id, c, tally));
      tally.add('contexts', renamed || rescoped ? 'updated' : 'unchanged');
    } else {
      const free = !(await tracker.takenContextIds(trx, [c.id])).has(c.id);
      if (!free) await tracker.moveIdSequencePast(trx, 'field_contexts', maxContextId);
      row = await tracker.createContext(trx, { id: free ? c.id : undefined, fieldId, name: c.name, description: c.description });
      if (!free) tally.map('context', c.id, row.id);
      // A later context that gets its id from the sequence must not run into this one's.
      else await tracker.moveIdSequencePast(trx, 'field_contexts');
      await writeScope(trx, fieldId, row.id, c, tally);
      // Before 1.5.0 the source does not tell a context's projects: here it applies to all of them until an administrator narrows it.
      if (!c.projects) tally.skip('contexts whose projects the source did not tell (all projects here)');
      tally.add('contexts', 'created');
    }
    contexts.set(c.id, row.id);
    await migrationRecords.save(trx, TRACKER_SOURCE, 'context', { sourceId: String(c.id), localId: String(row.id), fingerprint: fingerprintOf(contextState(c)) });
  }
  const mine = new Set(contexts.values());
  const extra = (await tracker.contextsOf(trx, fieldId)).filter((l) => !mine.has(l.id));
  tally.skip('contexts here that the source does not have (kept)', extra.length);
  return { id: fieldId, typeKey: src.typeKey, contexts };
}

const contextState = (c: SourceContext) => ({ name: c.name, description: c.description, projects: c.projects, issueTypes: c.issueTypes });

async function writeField(trx: Knex.Transaction, src: SourceTrackerField, tally: UnitTally, maxSource: { field: number; context: number }): Promise<number> {
  const recorded = await migrationRecords.find(trx, TRACKER_SOURCE, 'field', String(src.id));
  let local = recorded ? await tracker.field(trx, Number(recorded.local_id)) : undefined;
  if (!local) {
    const same = await tracker.field(trx, src.id);
    if (same && same.name.toLowerCase() === src.name.toLowerCase() && same.type_key === src.typeKey) local = same;
    else {
      const dflt = src.contexts.find((c) => c.isDefault);
      const contextFree = dflt !== undefined && !(await tracker.takenContextIds(trx, [dflt.id])).has(dflt.id);
      if (same) await tracker.moveIdSequencePast(trx, 'custom_fields', maxSource.field);
      if (!contextFree) await tracker.moveIdSequencePast(trx, 'field_contexts', maxSource.context);
      const created = await tracker.createField(trx, {
        id: same ? undefined : src.id,
        name: src.name,
        description: src.description,
        type: src.typeKey,
        defaultContextId: contextFree ? dflt.id : undefined,
      });
      if (same) tally.map('field', src.id, created.field.id);
      if (dflt && !contextFree) tally.map('context', dflt.id, created.defaultContextId);
      else await tracker.moveIdSequencePast(trx, 'custom_fields');
      if (contextFree) await tracker.moveIdSequencePast(trx, 'field_contexts');
      tally.add('fields', 'created');
      return created.field.id;
    }
  }
  if (local.type_key !== src.typeKey) {
    throw new Error(`the field is a ${shortFieldType(src.typeKey)} on the source but a ${shortFieldType(local.type_key)} here (field ${local.id})`);
  }
  if (local.name !== src.name || local.description !== src.description) {
    await tracker.updateField(trx, local.id, { name: src.name, description: src.description });
    tally.add('fields', 'updated');
  } else tally.add('fields', 'unchanged');
  return local.id;
}

/** Brings a context's projects and issue types in line with the source; answers whether anything changed. */
async function writeScope(trx: Knex.Transaction, fieldId: number, contextId: number, c: SourceContext, tally: UnitTally): Promise<boolean> {
  let changed = false;
  if (c.projects) {
    const ids: number[] = [];
    for (const p of c.projects) {
      let row = await tracker.projectByKey(trx, p.key);
      if (!row) {
        row = await tracker.createProject(trx, { key: p.key, name: p.name, description: p.description });
        tally.add('projects', 'created');
      }
      ids.push(row.id);
    }
    const now = await tracker.contextProjectIds(trx, contextId);
    if (!sameSet(now, ids)) {
      await tracker.setContextProjects(trx, fieldId, contextId, [...new Set(ids)]);
      changed = true;
    }
  }
  if (c.issueTypes) {
    const ids: number[] = [];
    for (const t of c.issueTypes) {
      let row = await tracker.issueTypeByName(trx, t.name);
      if (!row) {
        row = await tracker.createIssueType(trx, { name: t.name, description: t.description, type: t.subtask ? 'subtask' : 'standard' });
        tally.add('issue types', 'created');
      }
      ids.push(row.id);
    }
    const now = await tracker.contextIssueTypeIds(trx, contextId);
    if (!sameSet(now, ids)) {
      await tracker.setContextIssueTypes(trx, contextId, [...new Set(ids)]);
      changed = true;
    }
  }
  return changed;
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}
