// The administrators' user and group pages, the change of a user, and a user's own password change under
// /rest/api/2, each declared once (docs/openapi.md). The web interface's user administration calls these.
import { z } from 'zod';
import { currentUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import { clientAddress } from '../platform/http/client-address.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { empty, json } from '../platform/openapi/operation.ts';
import type { DirectoryService } from './directory.service.ts';
import type { DirectoryPages } from './directory-pages.service.ts';
import type { OwnPasswordService } from './own-password.service.ts';
import { presentGroup, presentUser } from './user.presenter.ts';
import { user, SYSADMIN_ONLY } from './directory.openapi-schemas.ts';
import * as s from './directory.schemas.ts';

export interface UserAdminDeps {
  directory: DirectoryService;
  pages: DirectoryPages;
  ownPassword: OwnPasswordService;
  baseUrl: string;
}

const TAG = 'Users and groups';

/** The hosts' page wrapper around `item`. */
const page = <T extends z.ZodType>(item: T, title: string) =>
  z.object({ startAt: z.number().int(), maxResults: z.number().int(), total: z.number().int(), isLast: z.boolean(), values: z.array(item) }).meta({ title });

const listedUser = user.omit({ groups: true }).extend({
  failedLogins: z.number().int().describe('Failed logins counted against the name since its last successful one'),
  locked: z.boolean().describe('Logins of the name are refused until the lock ends or an administrator unlocks it'),
  lockedUntil: z.string().nullable().describe('When the lock ends by itself (ISO 8601); null when not locked or locked until unlocked'),
});
const listedGroup = z.object({ name: z.string(), self: z.string(), builtin: z.boolean(), memberCount: z.number().int() }).meta({ title: 'ListedGroup' });

export const userAdminEndpoints: Endpoint<UserAdminDeps>[] = [
  {
    method: 'get', path: '/rest/api/2/users/search', tag: TAG, access: 'admin',
    summary: 'One page of users (name, display name or e-mail contains `query`), with their failed-login state',
    query: s.adminPageQuery, responses: { 200: json(page(listedUser, 'UserPage'), 'One page of users, by name') }, errors: [400],
    handle: async (req, res, { pages, baseUrl }) => {
      const q = parseWith(s.adminPageQuery, req.query);
      const found = await pages.users(q.query, q.startAt, q.maxResults);
      res.json({
        ...found,
        values: found.values.map((u) => ({
          ...presentUser(baseUrl, u),
          failedLogins: u.failedLogins,
          locked: u.locked,
          lockedUntil: u.lockedUntil?.toISOString() ?? null,
        })),
      });
    },
  },
  {
    method: 'put', path: '/rest/api/2/user', tag: TAG, access: 'admin',
    summary: 'Change a user: display name, e-mail address, active (a deactivated user cannot log in and its sessions end)',
    query: s.usernameQuery, body: s.updateUserBody, responses: { 200: json(user, 'The changed user') }, errors: [400, 403, 404], denied: SYSADMIN_ONLY,
    handle: async (req, res, { directory, baseUrl }) => {
      const { username } = parseWith(s.usernameQuery, req.query);
      const body = parseWith(s.updateUserBody, req.body, 'body');
      res.json(presentUser(baseUrl, await directory.updateUser(username, body, currentUser(req))));
    },
  },
  {
    method: 'put', path: '/rest/api/2/myself/password', tag: TAG, access: 'user',
    summary: "Change the caller's own password; the current one is checked like a login (a wrong one counts as a failed login)",
    body: s.ownPasswordBody, responses: { 204: empty('Changed; every session and login with the old password ends, this one included') }, errors: [400, 403],
    denied: 'the current password is wrong (counted as a failed login), or the name is locked after too many failed logins',
    handle: async (req, res, { ownPassword }) => {
      const body = parseWith(s.ownPasswordBody, req.body, 'body');
      await ownPassword.change(currentUser(req), body.currentPassword, body.password, clientAddress(req));
      res.status(204).end();
    },
  },
  {
    method: 'get', path: '/rest/api/2/group/bulk', tag: TAG, access: 'admin', summary: 'One page of groups (name contains `query`), with their member counts',
    query: s.adminPageQuery, responses: { 200: json(page(listedGroup, 'GroupPage'), 'One page of groups, by name') }, errors: [400],
    handle: async (req, res, { pages, baseUrl }) => {
      const q = parseWith(s.adminPageQuery, req.query);
      const found = await pages.groups(q.query, q.startAt, q.maxResults);
      res.json({ ...found, values: found.values.map((g) => ({ ...presentGroup(baseUrl, g.name), builtin: g.builtin, memberCount: g.members })) });
    },
  },
  {
    method: 'get', path: '/rest/api/2/group/member', tag: TAG, access: 'admin', summary: "One page of a group's members, by name",
    query: s.groupMembersQuery, responses: { 200: json(page(user.omit({ groups: true }), 'MemberPage'), 'One page of members') }, errors: [400, 404],
    handle: async (req, res, { pages, baseUrl }) => {
      const q = parseWith(s.groupMembersQuery, req.query);
      const { page: found } = await pages.members(q.groupname, q.startAt, q.maxResults);
      res.json({ ...found, values: found.values.map((u) => presentUser(baseUrl, u)) });
    },
  },
];
