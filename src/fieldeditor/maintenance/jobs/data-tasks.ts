import type { Knex } from 'knex';
import { POSITION_GAP } from '../../shared/fieldeditor.model.ts';
import { pruneUnknownNames } from '../../../directory/auth-failures.repository.ts';
import { removeDanglingGrants } from '../../access/grant-repair.repository.ts';
import { removeDanglingDefaults, repairOptionOrder } from './jobs.repository.ts';

/**
 * The data tasks of JobRunDataMigrationTasks, in the order they run. Each runs once per database (recorded
 * in `data_migration_tasks`, like schema migrations) in one transaction with its record. A new task is
 * added at the end with a new dated name; a task is never renamed, or it would run again.
 */
export interface DataTask {
  name: string;
  /** Returns how many rows it changed. */
  run(trx: Knex.Transaction): Promise<number>;
}

export const DATA_TASKS: readonly DataTask[] = [
  {
    // Positions become rank × gap again in every sibling list (ties and crowded gaps resolved by id); the
    // lists' versions are raised so no node keeps serving a cached order.
    name: '20261123-repair-option-order',
    run: (trx) => repairOptionOrder(trx, POSITION_GAP),
  },
  {
    // Grants of users or groups that no longer exist, grants on a context of another field, and default
    // rows naming an option of another context: none of them can be used or shown correctly.
    name: '20261123-remove-dangling-grants-and-defaults',
    run: async (trx) => (await removeDanglingGrants(trx)) + (await removeDanglingDefaults(trx)),
  },
  {
    // Counters of names no account has, which are not locked (a locked name stays locked: a lock must not
    // reveal whether the name exists).
    name: '20261123-remove-unknown-auth-failures',
    run: (trx) => pruneUnknownNames(trx),
  },
];
