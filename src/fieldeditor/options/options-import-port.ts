// What an import from elsewhere (src/migration/) may do to a field's options and default values, inside the
// transaction of the field it imports: lock a sibling list as every option write locks it, read it, rename,
// enable or disable options, insert new ones (with the source's ids where they are free), write the list's order,
// move the id sequence, and set a context's default value. The options room keeps its own repositories; the
// migration writes through this port only (the dependency rule migration-writes-through-importer-exports).
// Announcing FIELD_OPTIONS_TOPIC after the commit is the caller's.
import type { Knex } from 'knex';
import { valueKey, type OptionRow } from './options.model.ts';
import { existingOptionIds, insertOptions, listRows, lockList, syncOptionIdSequence, updateOption, writeOrder, type ListKey } from './options.repository.ts';
import { clearDefault, insertDefault, readDefaultOptions } from './defaults.repository.ts';

export type { ListKey, OptionRow };

/** A new option of one sibling list, as an import writes it: its id where the source's is free, and its position. */
export interface ImportedOption {
  id?: number;
  fieldId: number;
  contextId: number;
  parentId: number | null;
  value: string;
  disabled: boolean;
  position: number;
}

export const optionsImportPort = {
  /** Of these option ids, those an option holds (in any field or context). */
  takenOptionIds: (trx: Knex, ids: readonly number[]): Promise<Set<number>> => existingOptionIds(trx, ids),

  /** Takes the list's lock (concurrent writers of the list wait until the transaction ends). */
  lockList: (trx: Knex.Transaction, list: ListKey): Promise<void> => lockList(trx, list),

  /** The list in order. */
  listRows: (trx: Knex, list: ListKey): Promise<OptionRow[]> => listRows(trx, list),

  updateOption: (trx: Knex.Transaction, id: number, patch: { value?: string; disabled?: boolean }): Promise<OptionRow> => updateOption(trx, id, patch),

  /** Inserts options of one list in one statement; answers each one's id and value key. */
  insertOptions: (trx: Knex.Transaction, options: readonly ImportedOption[]): Promise<{ id: number; value_key: string }[]> =>
    insertOptions(
      trx,
      options.map((o) => ({
        ...(o.id === undefined ? {} : { id: o.id }),
        field_id: o.fieldId,
        context_id: o.contextId,
        parent_id: o.parentId,
        value: o.value,
        value_key: valueKey(o.value),
        disabled: o.disabled,
        position: o.position,
      })),
    ),

  /** Gives the list this order (ids in their new order). */
  writeOrder: (trx: Knex.Transaction, list: ListKey, orderedIds: number[]): Promise<void> => writeOrder(trx, list, orderedIds),

  /**
   * Moves the option id sequence behind every option's id and behind `past`, never back: after options were
   * inserted with the source's ids, and, before a new id is given, past the run's largest source id.
   */
  moveIdSequencePast: (trx: Knex.Transaction, past = 0): Promise<void> => syncOptionIdSequence(trx, past),

  /** The context's default value: its chosen options' ids, in order. */
  async defaultOptionIds(trx: Knex, contextId: number): Promise<number[]> {
    return (await readDefaultOptions(trx, contextId)).map((r) => r.id);
  },

  /** Sets the context's default value to exactly these options, in this order (none: no default). */
  async replaceDefault(trx: Knex.Transaction, contextId: number, optionIds: readonly number[]): Promise<void> {
    await clearDefault(trx, contextId);
    await insertDefault(trx, contextId, optionIds);
  },
};
