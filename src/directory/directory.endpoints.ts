// Host REST for the directory under /rest/api/2, each endpoint declared once (docs/openapi.md): reads any
// user may do, and the administrators' user and group management.
import { z } from 'zod';
import { currentUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { empty, json } from '../platform/openapi/operation.ts';
import type { DirectoryService } from './directory.service.ts';
import { userAdminEndpoints, type UserAdminDeps } from './user-admin.endpoints.ts';
import { presentGroup, presentPickedGroup, presentUser } from './user.presenter.ts';
import { group, user, SYSADMIN_ONLY } from './directory.openapi-schemas.ts';
import * as s from './directory.schemas.ts';

export interface DirectoryDeps extends UserAdminDeps {
  directory: DirectoryService;
  baseUrl: string;
}

const TAG = 'Users and groups';

export const directoryEndpoints: Endpoint<DirectoryDeps>[] = [
  {
    method: 'get', path: '/rest/api/2/myself', tag: TAG, access: 'user', summary: 'The calling user, with its groups', responses: { 200: json(user, 'The user') },
    // Answered from the authenticated user (kept current by the change feed): no database work on this hot path.
    handle: (req, res, { baseUrl }) => {
      const u = currentUser(req);
      res.json(presentUser(baseUrl, { name: u.name, display_name: u.displayName, email: u.email, active: u.active, groups: u.groups }));
    },
  },
  {
    method: 'get', path: '/rest/api/2/user/search', tag: TAG, access: 'user', summary: 'Users whose name or display name contains a text',
    query: s.userSearchQuery, responses: { 200: json(z.array(user), 'One page of users') }, errors: [400],
    handle: async (req, res, { directory, baseUrl }) => {
      const q = parseWith(s.userSearchQuery, req.query);
      const found = await directory.searchUsers(q.username, q.startAt, q.maxResults);
      res.json(found.map((u) => presentUser(baseUrl, u)));
    },
  },
  {
    method: 'get', path: '/rest/api/2/groups/picker', tag: TAG, access: 'user', summary: 'Groups whose name contains a text', query: s.groupPickerQuery,
    responses: { 200: json(z.object({ header: z.string(), total: z.number().int(), groups: z.array(z.object({ name: z.string(), html: z.string() })) }), 'Matching groups') },
    errors: [400],
    handle: async (req, res, { directory }) => {
      const q = parseWith(s.groupPickerQuery, req.query);
      const { total, names } = await directory.groupPicker(q.query, q.maxResults);
      res.json({ header: `Showing ${names.length} of ${total} matching groups`, total, groups: names.map((name) => presentPickedGroup(name, q.query)) });
    },
  },
  {
    method: 'post', path: '/rest/api/2/user', tag: TAG, access: 'admin', summary: 'Create a user', body: s.createUserBody, responses: { 201: json(user, 'The new user') }, errors: [400],
    handle: async (req, res, { directory, baseUrl }) => {
      const body = parseWith(s.createUserBody, req.body, 'body');
      directory.passwordPolicy.check(body.name, body.password);
      res.status(201).json(presentUser(baseUrl, await directory.createUser(body, currentUser(req))));
    },
  },
  {
    method: 'get', path: '/rest/api/2/user', tag: TAG, access: 'admin', summary: 'One user by name', query: s.usernameQuery, responses: { 200: json(user, 'The user') }, errors: [400, 404],
    handle: async (req, res, { directory, baseUrl }) => {
      const { username } = parseWith(s.usernameQuery, req.query);
      res.json(presentUser(baseUrl, await directory.getUser(username)));
    },
  },
  {
    method: 'put', path: '/rest/api/2/user/password', tag: TAG, access: 'admin', summary: "Set a user's password", query: s.usernameQuery, body: s.passwordBody,
    responses: { 204: empty('Changed; logins with the old password stop at once') }, errors: [400, 403, 404], denied: SYSADMIN_ONLY,
    handle: async (req, res, { directory }) => {
      const { username } = parseWith(s.usernameQuery, req.query);
      const { password } = parseWith(s.passwordBody, req.body, 'body');
      directory.passwordPolicy.check(username, password);
      await directory.setPassword(username, password, currentUser(req));
      res.status(204).end();
    },
  },
  {
    method: 'delete', path: '/rest/api/2/user', tag: TAG, access: 'admin', summary: 'Delete a user (memberships, tokens and field-editor grants go too)',
    query: s.usernameQuery, responses: { 204: empty('Deleted') }, errors: [400, 403, 404], denied: SYSADMIN_ONLY,
    handle: async (req, res, { directory }) => {
      const { username } = parseWith(s.usernameQuery, req.query);
      await directory.deleteUser(username, currentUser(req));
      res.status(204).end();
    },
  },
  {
    method: 'delete', path: '/rest/api/2/user/lockout', tag: TAG, access: 'admin', summary: 'Clear the failed-login lock of a name',
    query: s.usernameQuery, responses: { 204: empty('Unlocked') }, errors: [400],
    handle: async (req, res, { directory }) => {
      const { username } = parseWith(s.usernameQuery, req.query);
      await directory.resetLockout(username, currentUser(req).name);
      res.status(204).end();
    },
  },
  {
    method: 'post', path: '/rest/api/2/group', tag: TAG, access: 'admin', summary: 'Create a group', body: s.groupBody, responses: { 201: json(group, 'The new group') }, errors: [400],
    handle: async (req, res, { directory, baseUrl }) => {
      const { name } = parseWith(s.groupBody, req.body, 'body');
      const created = await directory.createGroup(name, currentUser(req).name);
      res.status(201).json(presentGroup(baseUrl, created.name));
    },
  },
  {
    method: 'delete', path: '/rest/api/2/group', tag: TAG, access: 'admin', summary: 'Delete a group (not a built-in one)', query: s.groupnameQuery,
    responses: { 200: empty('Deleted') }, errors: [400, 404],
    handle: async (req, res, { directory }) => {
      const { groupname } = parseWith(s.groupnameQuery, req.query);
      await directory.deleteGroup(groupname, currentUser(req).name);
      res.status(200).end();
    },
  },
  {
    method: 'post', path: '/rest/api/2/group/user', tag: TAG, access: 'admin', summary: 'Add a user to a group', query: s.groupnameQuery, body: s.memberBody,
    responses: { 201: json(group, 'The group') }, errors: [400, 403, 404], denied: SYSADMIN_ONLY,
    handle: async (req, res, { directory, baseUrl }) => {
      const { groupname } = parseWith(s.groupnameQuery, req.query);
      const { name } = parseWith(s.memberBody, req.body, 'body');
      const joined = await directory.addMember(groupname, name, currentUser(req));
      res.status(201).json(presentGroup(baseUrl, joined.name));
    },
  },
  {
    method: 'delete', path: '/rest/api/2/group/user', tag: TAG, access: 'admin', summary: 'Remove a user from a group', query: s.memberQuery,
    responses: { 200: empty('Removed') }, errors: [400, 403, 404], denied: SYSADMIN_ONLY,
    handle: async (req, res, { directory }) => {
      const q = parseWith(s.memberQuery, req.query);
      await directory.removeMember(q.groupname, q.username, currentUser(req));
      res.status(200).end();
    },
  },
  ...userAdminEndpoints,
];
