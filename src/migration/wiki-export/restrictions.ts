// View restrictions of a space's content from the export's ContentPermissionSet and ContentPermission objects
// (a permission names its set, or the set lists its permissions; either is enough). A permission names its user
// by key (a ConfluenceUserImpl, 5.x and later), by `userName` (4.x, before user keys), or both: the key is
// followed where the export holds its user record, the name otherwise, so one person is one user here
// whichever way an export names them. Edit restrictions are only counted: this host has view restrictions only.
import type { ExportIndex } from './export-index.ts';

export interface ViewRestriction {
  users: string[];
  groups: string[];
  userKeys: string[];
  /** Entries that name nobody the export holds (a user key without a user record, no name at all). */
  unknown: number;
}

export interface Restrictions {
  /** Every content with a view restriction; one whose lists are both empty is restricted to nobody here. */
  view: Map<number, ViewRestriction>;
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
    else if (set.type === 'View') {
      viewSets.set(setId, set.contentId);
      // A view set is a restriction even when none of its entries can be read: never public because of that.
      if (!view.has(set.contentId)) view.set(set.contentId, { users: [], groups: [], userKeys: [], unknown: 0 });
    }
  }
  for (const p of index.permissions) {
    const setId = p.setId ?? index.setOfPermission.get(p.id);
    const contentId = setId === undefined ? undefined : viewSets.get(setId);
    if (contentId === undefined || (p.type && p.type !== 'View')) continue;
    const r = view.get(contentId)!;
    const byKey = p.userKey === undefined ? undefined : index.people.userByKey.get(p.userKey);
    const name = byKey?.name ?? p.userName;
    if (name !== undefined && !r.users.some((u) => u.toLowerCase() === name.toLowerCase())) r.users.push(name);
    if (byKey && p.userKey) r.userKeys.push(p.userKey);
    if (p.groupName && !r.groups.includes(p.groupName)) r.groups.push(p.groupName);
    if (name === undefined && !p.groupName) r.unknown++;
  }
  return { view, editSets, membersOf: (group) => index.people.membersOf(group) };
}
