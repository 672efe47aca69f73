// What an import from elsewhere (src/migration/) may do to a field's field-editor grants, inside the transaction
// of the field it imports: tell whether a grant exists, add one, and list the field's grants (to count those the
// source does not have, which are kept). The grants room keeps its repository; the migration writes through this
// port only (the dependency rule migration-writes-through-importer-exports). The people a grant names are the
// directory's (directory/directory-import-port.ts).
import type { Knex } from 'knex';
import { grantsRepository, type GrantRow, type Principal } from './grants.repository.ts';

export type { GrantRow, Principal };

export const grantsImportPort = {
  /** Whether the principal holds this grant (its name without regard to case; `contextId` null: the global one). */
  hasGrant: (trx: Knex, fieldId: number, contextId: number | null, p: Principal): Promise<boolean> => grantsRepository.exists(trx, fieldId, contextId, p),

  /** Adds the grant (left as it is when it exists). */
  addGrant: (trx: Knex, fieldId: number, contextId: number | null, p: Principal): Promise<void> => grantsRepository.add(trx, fieldId, contextId, [p]),

  /** Every grant of the field: the global ones, then those on contexts. */
  async grantsOf(trx: Knex, fieldId: number): Promise<GrantRow[]> {
    return [...(await grantsRepository.ofField(trx, fieldId, 'global')), ...(await grantsRepository.ofField(trx, fieldId, 'contexts'))];
  },
};
