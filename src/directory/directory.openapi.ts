// OpenAPI declarations of the directory (/rest/api/2) and token (/rest/pat) routes; see docs/openapi.md.
import { z } from 'zod';
import { empty, json, type OperationDoc } from '../platform/openapi/operation.ts';
import * as s from './directory.schemas.ts';

const TAG = 'Users and groups';
const TOKENS = 'Personal access tokens';

const group = z.object({ name: z.string(), self: z.string() }).meta({ title: 'Group' });
const user = z
  .object({
    self: z.string(),
    key: z.string().describe('The name in lower case'),
    name: z.string(),
    emailAddress: z.string(),
    displayName: z.string(),
    active: z.boolean(),
    groups: z.object({ size: z.number().int(), items: z.array(group) }).optional().describe('With /myself and single-user answers'),
  })
  .meta({ title: 'User' });
const token = z
  .object({
    id: z.number().int(),
    name: z.string(),
    createdAt: z.string(),
    expiringAt: z.string().optional(),
    lastAccessedAt: z.string().optional(),
  })
  .meta({ title: 'Token' });

export const directoryOperations: OperationDoc[] = [
  { method: 'get', path: '/rest/api/2/myself', tag: TAG, access: 'user', summary: 'The calling user, with its groups', responses: { 200: json(user, 'The user') } },
  {
    method: 'get', path: '/rest/api/2/user/search', tag: TAG, access: 'user', summary: 'Users whose name or display name contains a text',
    query: s.userSearchQuery, responses: { 200: json(z.array(user), 'One page of users') }, errors: [400],
  },
  {
    method: 'get', path: '/rest/api/2/groups/picker', tag: TAG, access: 'user', summary: 'Groups whose name contains a text', query: s.groupPickerQuery,
    responses: { 200: json(z.object({ header: z.string(), total: z.number().int(), groups: z.array(z.object({ name: z.string(), html: z.string() })) }), 'Matching groups') },
    errors: [400],
  },
  { method: 'post', path: '/rest/api/2/user', tag: TAG, access: 'admin', summary: 'Create a user', body: s.createUserBody, responses: { 201: json(user, 'The new user') }, errors: [400] },
  { method: 'get', path: '/rest/api/2/user', tag: TAG, access: 'admin', summary: 'One user by name', query: s.usernameQuery, responses: { 200: json(user, 'The user') }, errors: [400, 404] },
  {
    method: 'put', path: '/rest/api/2/user/password', tag: TAG, access: 'admin', summary: "Set a user's password", query: s.usernameQuery, body: s.passwordBody,
    responses: { 204: empty('Changed; logins with the old password stop at once') }, errors: [400, 404],
  },
  {
    method: 'delete', path: '/rest/api/2/user', tag: TAG, access: 'admin', summary: 'Delete a user (memberships, tokens and field-editor grants go too)',
    query: s.usernameQuery, responses: { 204: empty('Deleted') }, errors: [400, 404],
  },
  {
    method: 'delete', path: '/rest/api/2/user/lockout', tag: TAG, access: 'admin', summary: 'Clear the failed-login lock of a name',
    query: s.usernameQuery, responses: { 204: empty('Unlocked') }, errors: [400],
  },
  { method: 'post', path: '/rest/api/2/group', tag: TAG, access: 'admin', summary: 'Create a group', body: s.groupBody, responses: { 201: json(group, 'The new group') }, errors: [400] },
  {
    method: 'delete', path: '/rest/api/2/group', tag: TAG, access: 'admin', summary: 'Delete a group (not a built-in one)', query: s.groupnameQuery,
    responses: { 200: empty('Deleted') }, errors: [400, 404],
  },
  {
    method: 'post', path: '/rest/api/2/group/user', tag: TAG, access: 'admin', summary: 'Add a user to a group', query: s.groupnameQuery, body: s.memberBody,
    responses: { 201: json(group, 'The group') }, errors: [400, 404],
  },
  {
    method: 'delete', path: '/rest/api/2/group/user', tag: TAG, access: 'admin', summary: 'Remove a user from a group', query: s.memberQuery,
    responses: { 200: empty('Removed') }, errors: [400, 404],
  },
  {
    method: 'post', path: '/rest/pat/latest/tokens', tag: TOKENS, access: 'user', summary: 'Create a personal access token (the raw token is shown only here)',
    body: s.createTokenBody, responses: { 201: json(token.extend({ rawToken: z.string() }), 'The token with its raw value') }, errors: [400],
  },
  { method: 'get', path: '/rest/pat/latest/tokens', tag: TOKENS, access: 'user', summary: "The caller's tokens (without raw values)", responses: { 200: json(z.array(token), 'The tokens') } },
  {
    method: 'delete', path: '/rest/pat/latest/tokens/{id}', tag: TOKENS, access: 'user', summary: 'Revoke a token (its owner or an administrator)', params: s.tokenIdParams,
    responses: { 204: empty('Revoked; it stops working at once') }, errors: [400, 404],
  },
];
