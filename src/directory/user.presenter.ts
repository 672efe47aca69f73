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

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * A group of the picker (`GET /rest/api/2/groups/picker`): `html` is the name as markup, with the part that
 * matched the query in `<b>`, as the tracker host answers it. Clients insert it as HTML, so every part of the
 * name is escaped. When lower-casing changes the name's length (the match is found without regard to case),
 * the name is given without the highlight rather than with a misplaced one.
 */
export function presentPickedGroup(name: string, query: string) {
  const lower = name.toLowerCase();
  const needle = query.toLowerCase();
  const at = needle === '' || lower.length !== name.length ? -1 : lower.indexOf(needle);
  if (at < 0) return { name, html: escapeHtml(name) };
  const end = at + needle.length;
  return { name, html: `${escapeHtml(name.slice(0, at))}<b>${escapeHtml(name.slice(at, end))}</b>${escapeHtml(name.slice(end))}` };
}
