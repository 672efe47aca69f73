// Brings each context's option tree in line with the source, list by list (each list locked as every option
// write locks it): an option is found by its migration record, else by value among its siblings; it is renamed
// and enabled or disabled as the source has it, new ones keep the source's id where no option here has it
// (mapped and reported otherwise), and the list takes the source's order. Options here that the source does not
// have are kept, after the source's, and counted. Then each context's default value, by the mapped ids. Everything
// is written through the options room's import port (fieldeditor/options/options-import-port.ts); the field
// editor's own option-writer.ts serves the API's writes (rights, event log), which an import does not make.
import type { Knex } from 'knex';
import { fingerprintOf, migrationRecords, type MigrationRecord } from '../migration-records.repository.ts';
import { POSITION_GAP } from '../../fieldeditor/shared/fieldeditor.model.ts';
import { valueKey } from '../../fieldeditor/options/options.model.ts';
import { optionsImportPort as options, type ImportedOption, type ListKey, type OptionRow } from '../../fieldeditor/options/options-import-port.ts';
import { isCascading, isMultiLevel } from '../../fieldeditor/access/field-kinds.ts';
import { shortFieldType } from '../../tracker/field-types.ts';
import { walkOptions, type SourceMaxIds, type SourceOption, type SourceTrackerField } from './tracker-model.ts';
import { TRACKER_SOURCE, type WrittenField } from './field-writer.ts';
import type { UnitTally } from './unit-tally.ts';

const KEPT = 'options here that the source does not have (kept, after its own)';

interface Run {
  trx: Knex.Transaction;
  fieldId: number;
  tally: UnitTally;
  records: Map<string, MigrationRecord>;
  /** Option ids in use here (any field): a new option keeps the source's id only when it is not among them. */
  taken: Set<number>;
  /** Source option id → ours, for the defaults. */
  ids: Map<number, number>;
  /** Options were inserted with their own ids (the sequence is moved past them at the end). */
  explicitIds: boolean;
  /** The largest source option id of the run, and whether the id sequence was moved past it. */
  maxSourceId: number;
  sequencePast: boolean;
  /** Option records that are new or changed, written together at the end. */
  pending: { sourceId: string; localId: string; fingerprint: string }[];
  /** How deep child lists go: 0 for plain selects, 1 for cascading, any depth for the multi-level select. */
  maxDepth: number;
}

export async function writeOptionsAndDefaults(trx: Knex.Transaction, src: SourceTrackerField, field: WrittenField, tally: UnitTally, max: SourceMaxIds): Promise<void> {
  const kind = { typeKey: src.typeKey, fieldType: shortFieldType(src.typeKey) };
  const all = src.contexts.flatMap((c) => [...walkOptions(c.options)].map((o) => o.id));
  const run: Run = {
    trx,
    fieldId: field.id,
    tally,
    records: await migrationRecords.findMany(trx, TRACKER_SOURCE, 'option', all.map(String)),
    taken: await options.takenOptionIds(trx, all),
    ids: new Map(),
    explicitIds: false,
    maxSourceId: all.reduce((m, id) => Math.max(m, id), max.option),
    sequencePast: false,
    pending: [],
    maxDepth: isMultiLevel(kind) ? Number.MAX_SAFE_INTEGER : isCascading(kind) ? 1 : 0,
  };
  for (const c of src.contexts) {
    const contextId = field.contexts.get(c.id);
    if (contextId === undefined) continue;
    await writeList(run, { contextId, parentId: null }, c.options, 0);
  }
  if (run.explicitIds) await options.moveIdSequencePast(trx);
  await migrationRecords.saveMany(trx, TRACKER_SOURCE, 'option', run.pending);
  for (const c of src.contexts) {
    const contextId = field.contexts.get(c.id);
    if (contextId !== undefined) await writeDefault(run, contextId, c.defaultOptionIds);
  }
}

async function writeList(run: Run, list: ListKey, nodes: readonly SourceOption[], depth: number): Promise<void> {
  const { trx, tally } = run;
  if (nodes.length === 0) {
    // Nothing to write: only count what is here (no lock row for a list that never had options).
    tally.skip(KEPT, (await options.listRows(trx, list)).length);
    return;
  }
  await options.lockList(trx, list);
  const rows = await options.listRows(trx, list);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byKey = new Map(rows.map((r) => [valueKey(r.value), r]));
  const claimed = new Map<number, OptionRow>();
  const match = (n: SourceOption): OptionRow | undefined => {
    const rec = run.records.get(String(n.id));
    const found = (rec && byId.get(Number(rec.local_id))) || byKey.get(valueKey(n.value));
    return found && !claimed.has(found.id) ? found : undefined;
  };
  const matched = nodes.map((n) => {
    const row = match(n);
    if (row) claimed.set(row.id, row);
    // An option that was here already (same value) under another id: the source's id now means ours.
    if (row && row.id !== n.id && !run.records.has(String(n.id))) tally.map('option', n.id, row.id);
    return row;
  });
  // Renames go through a placeholder first, so that values swapped between siblings never collide.
  const renamed = nodes.flatMap((n, i) => (matched[i] && matched[i].value !== n.value ? [[n, matched[i]] as const] : []));
  for (const [, row] of renamed) await options.updateOption(trx, row.id, { value: `\u0001${row.id}` });
  // Reordered: an option whose place among the matched ones moved (new and kept ones do not count).
  const before = new Map(rows.filter((r) => claimed.has(r.id)).map((r, i) => [r.id, i]));
  const after = new Map(matched.flatMap((r) => (r ? [r.id] : [])).map((id, i) => [id, i]));
  const kept = rows.filter((r) => !claimed.has(r.id));
  const fresh: { node: SourceOption; option: ImportedOption }[] = [];
  for (const [i, n] of nodes.entries()) {
    const row = matched[i];
    if (row) {
      const changed = row.value !== n.value || row.disabled !== n.disabled;
      if (changed) await options.updateOption(trx, row.id, { value: n.value, disabled: n.disabled });
      tally.add('options', changed || before.get(row.id) !== after.get(row.id) ? 'updated' : 'unchanged');
      run.ids.set(n.id, row.id);
    } else {
      const keepId = !run.taken.has(n.id);
      const values = { fieldId: run.fieldId, contextId: list.contextId, parentId: list.parentId, value: n.value, disabled: n.disabled };
      fresh.push({ node: n, option: { ...(keepId ? { id: n.id } : {}), ...values, position: (rows.length + fresh.length) * POSITION_GAP } });
    }
  }
  await insertFresh(run, fresh);
  const finalOrder = nodes.map((n) => run.ids.get(n.id) ?? 0).concat(kept.map((r) => r.id));
  await options.writeOrder(trx, list, finalOrder);
  tally.skip(KEPT, kept.length);
  for (const n of nodes) {
    const localId = run.ids.get(n.id);
    if (localId === undefined) continue;
    const record = { sourceId: String(n.id), localId: String(localId), fingerprint: fingerprintOf({ value: n.value, disabled: n.disabled, parent: list.parentId }) };
    const known = run.records.get(record.sourceId);
    if (known?.local_id !== record.localId || known.fingerprint !== record.fingerprint) run.pending.push(record);
    // A new option has no children here yet; an existing one may have some (kept ones are counted).
    if (depth < run.maxDepth && (n.children.length > 0 || byId.has(localId))) {
      await writeList(run, { contextId: list.contextId, parentId: localId }, n.children, depth + 1);
    }
  }
}

/** New options in one or two statements (with the source's ids, and without where they were taken). */
async function insertFresh(run: Run, fresh: { node: SourceOption; option: ImportedOption }[]): Promise<void> {
  for (const batch of [fresh.filter((f) => f.option.id !== undefined), fresh.filter((f) => f.option.id === undefined)]) {
    if (batch.length === 0) continue;
    // Ids given by the sequence must not land on the source's ids (kept ones, or ones still to come): move it past them first.
    if (batch[0]!.option.id === undefined && !run.sequencePast) {
      await options.moveIdSequencePast(run.trx, run.maxSourceId);
      run.sequencePast = true;
    }
    const inserted = await options.insertOptions(run.trx, batch.map((f) => f.option));
    const idByKey = new Map(inserted.map((r) => [r.value_key, r.id]));
    for (const f of batch) {
      const id = idByKey.get(valueKey(f.option.value));
      if (id === undefined) throw new Error(`option ${f.node.id} was not inserted`);
      run.ids.set(f.node.id, id);
      run.taken.add(id);
      if (id !== f.node.id) run.tally.map('option', f.node.id, id);
      else run.explicitIds = true;
      run.tally.add('options', 'created');
    }
  }
}

async function writeDefault(run: Run, contextId: number, sourceIds: readonly number[]): Promise<void> {
  const wanted = sourceIds.map((id) => run.ids.get(id));
  if (wanted.some((id) => id === undefined)) {
    run.tally.skip('defaults naming an option the source did not list');
    return;
  }
  const now = await options.defaultOptionIds(run.trx, contextId);
  const same = now.length === wanted.length && now.every((id, i) => id === wanted[i]);
  if (same) {
    run.tally.add('defaults', 'unchanged', wanted.length > 0 ? 1 : 0);
    return;
  }
  await options.replaceDefault(run.trx, contextId, wanted as number[]);
  run.tally.add('defaults', now.length === 0 ? 'created' : 'updated');
}
