// What an import from elsewhere (src/migration/) may do to the tracker, inside the transaction of the field it
// imports: find a field by id, create it (with its default context) or bring its name and description in line,
// find, create and rename its contexts, set the projects and issue types a context applies to (creating the ones
// the source names by key and name), and move an id sequence past the source's ids. The tracker keeps its own
// repositories and rules (tracker.service.ts); the migration writes through this port only (the dependency rule
// migration-writes-through-importer-exports). Announcing TRACKER_TOPIC after the commit is the caller's.
import type { Knex } from 'knex';
import { bumpSequence, catalogRepository, type IssueTypeRow, type ProjectRow } from './catalog.repository.ts';
import { fieldsRepository, type ContextRow, type FieldRow } from './fields.repository.ts';
import { trackerRules, type NewField } from './tracker.service.ts';

export const trackerImportPort = {
  /** The field of this id (of any type), or undefined. */
  field: (q: Knex, id: number): Promise<FieldRow | undefined> => fieldsRepository.findField(q, id),

  /** A field and its default context (the source's ids where given). */
  createField: (trx: Knex, f: NewField): Promise<{ field: FieldRow; defaultContextId: number }> => trackerRules.createField(trx, f),

  /** Brings a field's name and description in line with the source's. */
  updateField: (trx: Knex, id: number, f: { name: string; description: string }): Promise<void> => fieldsRepository.updateField(trx, id, f),

  /** The field's contexts, the default one first, then by id. */
  contextsOf: (trx: Knex, fieldId: number): Promise<ContextRow[]> => fieldsRepository.contextsOfFields(trx, [fieldId]),

  /** Which of these context ids a context holds (in any field). */
  takenContextIds: (trx: Knex, ids: readonly number[]): Promise<Set<number>> => fieldsRepository.existingContextIds(trx, ids),

  /** A context that is not the default one, with the source's id when given. */
  createContext: (trx: Knex, c: { id?: number; fieldId: number; name: string; description: string }): Promise<ContextRow> =>
    fieldsRepository.insertContext(trx, { ...c, isDefault: false }),

  updateContext: (trx: Knex, id: number, c: { name: string; description: string }): Promise<void> => fieldsRepository.updateContext(trx, id, c),

  projectByKey: (trx: Knex, key: string): Promise<ProjectRow | undefined> => catalogRepository.findProjectByKey(trx, key),

  createProject: (trx: Knex, p: { key: string; name: string; description: string }): Promise<ProjectRow> => trackerRules.createProject(trx, p),

  /** The issue type of this name, without regard to case. */
  issueTypeByName: (trx: Knex, name: string): Promise<IssueTypeRow | undefined> => catalogRepository.findIssueTypeByName(trx, name),

  createIssueType: (trx: Knex, t: { name: string; description: string; type: 'standard' | 'subtask' }): Promise<IssueTypeRow> =>
    trackerRules.createIssueType(trx, t),

  /** The projects a context applies to (none: all of them). */
  async contextProjectIds(trx: Knex, contextId: number): Promise<number[]> {
    return (await fieldsRepository.projectLinks(trx, [contextId])).map((l) => l.project_id);
  },

  setContextProjects: (trx: Knex, fieldId: number, contextId: number, projectIds: readonly number[]): Promise<void> =>
    fieldsRepository.setProjects(trx, fieldId, contextId, projectIds),

  /** The issue types a context applies to (none: all of them). */
  async contextIssueTypeIds(trx: Knex, contextId: number): Promise<number[]> {
    return (await fieldsRepository.issueTypeLinks(trx, [contextId])).map((l) => l.issue_type_id);
  },

  setContextIssueTypes: (trx: Knex, contextId: number, issueTypeIds: readonly number[]): Promise<void> =>
    fieldsRepository.setIssueTypes(trx, contextId, issueTypeIds),

  /**
   * Moves the table's id sequence past every id in it and past `past`, never back: after rows were inserted with
   * the source's ids, and, before a new id is given, past the run's largest source id (so that a new id never lands
   * on a source id that is still free and would then be taken by the import itself).
   */
  moveIdSequencePast: (trx: Knex, table: 'custom_fields' | 'field_contexts', past = 0): Promise<void> => bumpSequence(trx, table, past),
};
