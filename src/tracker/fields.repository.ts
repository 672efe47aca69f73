import type { Knex } from 'knex';

export interface FieldRow {
  id: number;
  name: string;
  description: string;
  type_key: string;
}

export interface ContextRow {
  id: number;
  field_id: number;
  name: string;
  description: string;
  is_default: boolean;
}

export const FIELD_COLUMNS = ['id', 'name', 'description', 'type_key'];
export const CONTEXT_COLUMNS = ['id', 'field_id', 'name', 'description', 'is_default'];

/** Table access for custom fields and their contexts. `q` is the root knex or a transaction. */
export const fieldsRepository = {
  /** Which of `ids` are fields already. */
  async existingIds(q: Knex, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    return new Set((await q('custom_fields').whereIn('id', ids).select<{ id: number }[]>('id')).map((r) => r.id));
  },

  /** Fields whose lower-cased names are among `nameKeys`, with their type keys. */
  findByNameKeys(q: Knex, nameKeys: readonly string[]): Promise<{ name_key: string; type_key: string; id: number }[]> {
    return q('custom_fields').whereIn('name_key', nameKeys).select('name_key', 'type_key', 'id');
  },

  /** Inserts many fields in one statement (an import); answers their ids in the order given. */
  async insertFields(q: Knex, fields: readonly { id?: number; name: string; description: string; typeKey: string }[]): Promise<number[]> {
    const rows = await q('custom_fields')
      .insert(fields.map((f) => ({ ...(f.id === undefined ? {} : { id: f.id }), name: f.name, name_key: f.name.toLowerCase(), description: f.description, type_key: f.typeKey })))
      .returning<{ id: number }[]>('id');
    return rows.map((r) => r.id);
  },

  /** Inserts many contexts in one statement (an import). */
  async insertContexts(q: Knex, contexts: readonly { id?: number; fieldId: number; name: string; description: string; isDefault: boolean }[]): Promise<void> {
    await q('field_contexts').insert(
      contexts.map((c) => ({ ...(c.id === undefined ? {} : { id: c.id }), field_id: c.fieldId, name: c.name, description: c.description, is_default: c.isDefault })),
    );
  },

  listFields(q: Knex): Promise<FieldRow[]> {
    return q('custom_fields').select(FIELD_COLUMNS).orderBy('id');
  },

  async findField(q: Knex, id: number): Promise<FieldRow | undefined> {
    return (await q('custom_fields').select(FIELD_COLUMNS).where({ id }).first()) as FieldRow | undefined;
  },

  /** Renames a field (its case-blind name key with it) and sets its description. */
  async updateField(q: Knex, id: number, f: { name: string; description: string }): Promise<void> {
    await q('custom_fields').where({ id }).update({ name: f.name, name_key: f.name.toLowerCase(), description: f.description });
  },

  async insertField(q: Knex, f: { id?: number; name: string; description: string; typeKey: string }): Promise<FieldRow> {
    const [row] = await q('custom_fields')
      .insert({ ...(f.id === undefined ? {} : { id: f.id }), name: f.name, name_key: f.name.toLowerCase(), description: f.description, type_key: f.typeKey })
      .returning(FIELD_COLUMNS);
    return row as FieldRow;
  },

  /** Locks the field row so that context changes of one field run one after the other. */
  async lockField(q: Knex, fieldId: number): Promise<void> {
    await q('custom_fields').select('id').where({ id: fieldId }).forUpdate();
  },

  async insertContext(q: Knex, c: { id?: number; fieldId: number; name: string; description: string; isDefault: boolean }): Promise<ContextRow> {
    const [row] = await q('field_contexts')
      .insert({ ...(c.id === undefined ? {} : { id: c.id }), field_id: c.fieldId, name: c.name, description: c.description, is_default: c.isDefault })
      .returning(CONTEXT_COLUMNS);
    return row as ContextRow;
  },

  async updateContext(q: Knex, id: number, c: { name?: string; description?: string }): Promise<void> {
    if (c.name === undefined && c.description === undefined) return;
    await q('field_contexts').where({ id }).update({ ...(c.name === undefined ? {} : { name: c.name }), ...(c.description === undefined ? {} : { description: c.description }) });
  },

  async deleteContext(q: Knex, id: number): Promise<boolean> {
    return (await q('field_contexts').where({ id }).del().returning('id')).length > 0;
  },

  /** Contexts of the given fields, default context first, then by id. */
  contextsOfFields(q: Knex, fieldIds: readonly number[]): Promise<ContextRow[]> {
    if (fieldIds.length === 0) return Promise.resolve([]);
    return q('field_contexts').select(CONTEXT_COLUMNS).whereIn('field_id', fieldIds).orderBy([{ column: 'field_id' }, { column: 'is_default', order: 'desc' }, { column: 'id' }]);
  },

  /** Which of `ids` are contexts already (of any field). */
  async existingContextIds(q: Knex, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    return new Set((await q('field_contexts').whereIn('id', ids).select<{ id: number }[]>('id')).map((r) => r.id));
  },

  contextsByIds(q: Knex, ids: readonly number[]): Promise<ContextRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return q('field_contexts').select(CONTEXT_COLUMNS).whereIn('id', ids).orderBy([{ column: 'is_default', order: 'desc' }, { column: 'id' }]);
  },

  /** (context id, project id) pairs of the given contexts. */
  projectLinks(q: Knex, contextIds: readonly number[]): Promise<{ context_id: number; project_id: number }[]> {
    if (contextIds.length === 0) return Promise.resolve([]);
    return q('field_context_projects').select('context_id', 'project_id').whereIn('context_id', contextIds).orderBy('project_id');
  },

  issueTypeLinks(q: Knex, contextIds: readonly number[]): Promise<{ context_id: number; issue_type_id: number }[]> {
    if (contextIds.length === 0) return Promise.resolve([]);
    return q('field_context_issue_types').select('context_id', 'issue_type_id').whereIn('context_id', contextIds).orderBy('issue_type_id');
  },

  async setProjects(q: Knex, fieldId: number, contextId: number, projectIds: readonly number[]): Promise<void> {
    await q('field_context_projects').where({ context_id: contextId }).del().returning('project_id');
    if (projectIds.length > 0) {
      await q('field_context_projects').insert(projectIds.map((p) => ({ context_id: contextId, field_id: fieldId, project_id: p })));
    }
  },

  async setIssueTypes(q: Knex, contextId: number, issueTypeIds: readonly number[]): Promise<void> {
    await q('field_context_issue_types').where({ context_id: contextId }).del().returning('issue_type_id');
    if (issueTypeIds.length > 0) {
      await q('field_context_issue_types').insert(issueTypeIds.map((t) => ({ context_id: contextId, issue_type_id: t })));
    }
  },

  /** Other contexts of the field that already hold one of these projects. */
  projectsTakenElsewhere(q: Knex, fieldId: number, contextId: number | null, projectIds: readonly number[]) {
    if (projectIds.length === 0) return Promise.resolve([] as { project_id: number; context_id: number }[]);
    const b = q('field_context_projects').select('project_id', 'context_id').where({ field_id: fieldId }).whereIn('project_id', projectIds);
    return (contextId === null ? b : b.whereNot({ context_id: contextId })) as Promise<{ project_id: number; context_id: number }[]>;
  },

  /** Another context of the field that applies to all projects (has no project link), if any. */
  async otherAllProjectsContext(q: Knex, fieldId: number, contextId: number | null): Promise<ContextRow | undefined> {
    const b = q('field_contexts as c')
      .select(CONTEXT_COLUMNS.map((c) => `c.${c}`))
      .where('c.field_id', fieldId)
      .whereNotExists(q('field_context_projects as p').select(q.raw('1')).whereRaw('p.context_id = c.id'));
    return (await (contextId === null ? b : b.whereNot('c.id', contextId)).first()) as ContextRow | undefined;
  },
};
