import type { ContextDetails } from '../../tracker/contexts.service.ts';
import type { IssueTypeRow, ProjectRow } from '../../tracker/catalog.repository.ts';
import type { FieldRef } from '../../tracker/refs.ts';
import type { GrantRow } from '../grants/grants.repository.ts';

/** JSON shapes of fieldeditor-api.md ("Resources and their fields"). */
export const fieldRecord = (f: FieldRef) => ({ fieldId: f.id, fieldName: f.name, fieldDescription: f.description, fieldType: f.fieldType });

const projectRecord = (p: ProjectRow) => ({ projectId: p.id, projectKey: p.key, projectName: p.name, projectDescription: p.description });
const issueTypeRecord = (t: IssueTypeRow) => ({
  issueTypeId: String(t.id),
  issueTypeName: t.name,
  issueTypeDescription: t.description,
  issueTypeIsSubTask: t.subtask,
});

/** `isGlobal`: the context applies to every project (the default context, unless it was narrowed). */
export const contextRecord = (c: ContextDetails) => ({
  contextId: c.id,
  contextName: c.name,
  contextDescription: c.description,
  isGlobal: c.allProjects,
  isAllIssueTypes: c.allIssueTypes,
  isAllProjects: c.allProjects,
  ...(c.projects ? { projects: c.projects.map(projectRecord) } : {}),
  ...(c.issueTypes ? { issueTypes: c.issueTypes.map(issueTypeRecord) } : {}),
});

/** `{userlist, grouplist}` of the given grant rows (already in display order). */
export const permissionRecord = (rows: readonly GrantRow[]) => ({
  userlist: rows.filter((r) => r.principal_type === 'user').map((r) => r.principal_name),
  grouplist: rows.filter((r) => r.principal_type === 'group').map((r) => r.principal_name),
});

export interface KnownUser {
  name: string;
  displayName: string;
}

/**
 * `userlistWithFullnames`: each granted user name with the directory's full name; a name the directory no
 * longer knows is shown with `exists: false` and its name as full name.
 */
export function fullnames(baseUrl: string, rows: readonly GrantRow[], known: ReadonlyMap<string, KnownUser>) {
  return rows
    .filter((r) => r.principal_type === 'user')
    .map((r) => {
      const u = known.get(r.principal_name.toLowerCase());
      return {
        username: u?.name ?? r.principal_name,
        fullname: u?.displayName ?? r.principal_name,
        exists: u !== undefined,
        avatar: `${baseUrl}/secure/useravatar?size=small&ownerId=${encodeURIComponent(u?.name ?? r.principal_name)}`,
      };
    });
}
