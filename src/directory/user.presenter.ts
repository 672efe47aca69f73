import type { UserRow } from './users.repository.ts';

type PresentableUser = Pick<UserRow, 'name' | 'display_name' | 'email' | 'active'> & { groups?: readonly string[] };

/** JSON shapes of the tracker host's user and group resources. */
export function presentUser(baseUrl: string, u: PresentableUser) {
  const self = `${baseUrl}/rest/api/2/user?username=${encodeURIComponent(u.name)}`;
  const base = { self, key: u.name.toLowerCase(), name: u.name, emailAddress: u.email, displayName: u.display_name, active: u.active };
  if (!u.groups) return base;
  return { ...base, groups: { size: u.groups.length, items: u.groups.map((name) => presentGroup(baseUrl, name)) } };
}

export function presentGroup(baseUrl: string, name: string) {
  return { name, self: `${baseUrl}/rest/api/2/group?groupname=${encodeURIComponent(name)}` };
}
