// View restrictions of a space's content from the export's ContentPermissionSet and ContentPermission objects
// (a permission names its set, or the set lists its permissions; either is enough), with users resolved from
// their ConfluenceUserImpl key to a name, and group members from the directory's memberships. Edit
// restrictions are only counted: this host has view restrictions only.
import type { ExportIndex } from './export-index.ts';

export interface ViewRestriction {
  users: string[];
  groups: string[];
  userKeys: string[];
}

export interface Restrictions {
  view: Map<number, ViewRestriction>;
  /** Content with a view restriction none of whose entries could be resolved: not imported rather than public. */
  unresolved: Set<number>;
  editSets: number;
  membersOf(group: string): string[];
}

export function restrictionsOf(index: ExportIndex, contentIds: Set<number>): Restrictions {
  const view = new Map<number, ViewRestriction>();
  const viewSets = new Map<number, number>();
  let editSets = 0;
  for (const [setId, set] of index.permissionSets) {
    if (set.contentId === undefined || !contentIds.has(set.contentId)) continue;
    if (set.type === 'Edit') editSets++;
    else if (set.type === 'View') viewSets.set(setId, set.contentId);
  }
  const unresolved = new Set(viewSets.values());
  for (const p of index.permissions) {
    const setId = p.setId ?? index.setOfPermission.get(p.id);
    const contentId = setId === undefined ? undefined : viewSets.get(setId);
    if (contentId === undefined || (p.type && p.type !== 'View')) continue;
    const r = view.get(contentId) ?? { users: [], groups: [], userKeys: [] };
    const user = p.userKey === undefined ? undefined : index.people.userByKey.get(p.userKey);
    if (user && p.userKey) {
      if (!r.users.includes(user.name)) r.users.push(user.name);
      r.userKeys.push(p.userKey);
    }
    if (p.groupName && !r.groups.includes(p.groupName)) r.groups.push(p.groupName);
    if (r.users.length || r.groups.length) {
      view.set(contentId, r);
      unresolved.delete(contentId);
    }
  }
  return { view, unresolved, editSets, membersOf: (group) => index.people.membersOf(group) };
}
