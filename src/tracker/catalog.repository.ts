import type { Knex } from 'knex';

export interface ProjectRow {
  id: number;
  key: string;
  name: string;
  description: string;
  project_type_key: string;
}

export interface IssueTypeRow {
  id: number;
  name: string;
  description: string;
  subtask: boolean;
}

const PROJECT_COLUMNS = ['id', 'key', 'name', 'description', 'project_type_key'];
const ISSUE_TYPE_COLUMNS = ['id', 'name', 'description', 'subtask'];

/** Table access for projects and issue types. `q` is the root knex or a transaction. */
export const catalogRepository = {
  listProjects(q: Knex): Promise<ProjectRow[]> {
    return q('projects').select(PROJECT_COLUMNS).orderBy('key');
  },
  async findProjectByKey(q: Knex, key: string): Promise<ProjectRow | undefined> {
    return (await q('projects').select(PROJECT_COLUMNS).where({ key }).first()) as ProjectRow | undefined;
  },
  projectsByIds(q: Knex, ids: readonly number[]): Promise<ProjectRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return q('projects').select(PROJECT_COLUMNS).whereIn('id', ids);
  },
  async insertProject(
    q: Knex,
    p: { id?: number; key: string; name: string; description: string; projectTypeKey: string; leadUserId: number | null },
  ): Promise<ProjectRow> {
    const [row] = await q('projects')
      .insert({
        ...(p.id === undefined ? {} : { id: p.id }),
        key: p.key,
        name: p.name,
        description: p.description,
        project_type_key: p.projectTypeKey,
        lead_user_id: p.leadUserId,
      })
      .returning(PROJECT_COLUMNS);
    return row as ProjectRow;
  },

  listIssueTypes(q: Knex): Promise<IssueTypeRow[]> {
    return q('issue_types').select(ISSUE_TYPE_COLUMNS).orderBy('id');
  },
  async findIssueTypeByName(q: Knex, name: string): Promise<IssueTypeRow | undefined> {
    return (await q('issue_types').select(ISSUE_TYPE_COLUMNS).where({ name_key: name.toLowerCase() }).first()) as IssueTypeRow | undefined;
  },
  issueTypesByIds(q: Knex, ids: readonly number[]): Promise<IssueTypeRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return q('issue_types').select(ISSUE_TYPE_COLUMNS).whereIn('id', ids);
  },
  async insertIssueType(q: Knex, t: { id?: number; name: string; description: string; subtask: boolean }): Promise<IssueTypeRow> {
    const [row] = await q('issue_types')
      .insert({ ...(t.id === undefined ? {} : { id: t.id }), name: t.name, name_key: t.name.toLowerCase(), description: t.description, subtask: t.subtask })
      .returning(ISSUE_TYPE_COLUMNS);
    return row as IssueTypeRow;
  },
};

/**
 * After inserting rows with explicit ids (import, demo), moves the table's sequence past them so that the
 * next generated id does not collide; with `past`, past that id too (an import from elsewhere that gives new ids
 * while source ids are still to come moves it past all of the source's ids). Never moves a sequence backwards.
 */
export async function bumpSequence(q: Knex, table: 'projects' | 'issue_types' | 'custom_fields' | 'field_contexts', past = 0): Promise<void> {
  await q.raw(
    `select setval(pg_get_serial_sequence(?, 'id'), greatest(?::bigint, (select coalesce(max(id), 0) from ??), (select last_value from ${table}_id_seq)))`,
    [table, past, table],
  );
}
