// Personal access tokens under /rest/pat/latest, each endpoint declared once (docs/openapi.md): each user
// manages its own (app.ts closes the whole `/latest` prefix to anonymous callers).
import { z } from 'zod';
import { currentUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { empty, json } from '../platform/openapi/operation.ts';
import { presentToken, type TokensService } from './tokens.service.ts';
import { token, SYSADMIN_ONLY } from './directory.openapi-schemas.ts';
import { createTokenBody, tokenIdParams, usernameQuery } from './directory.schemas.ts';

export interface TokensDeps {
  tokens: TokensService;
}

const TAG = 'Personal access tokens';

/** Each user's own tokens (the `/latest` prefix is closed to anonymous callers). */
export const userTokenEndpoints: Endpoint<TokensDeps>[] = [
  {
    method: 'post', path: '/rest/pat/latest/tokens', tag: TAG, access: 'user', summary: 'Create a personal access token (the raw token is shown only here)',
    body: createTokenBody, responses: { 201: json(token.extend({ rawToken: z.string() }), 'The token with its raw value') }, errors: [400],
    handle: async (req, res, { tokens }) => {
      const body = parseWith(createTokenBody, req.body, 'body');
      const { row, rawToken } = await tokens.create(currentUser(req).id, body.name, body.expirationDuration, body.scope);
      res.status(201).json(presentToken(row, rawToken));
    },
  },
  {
    method: 'get', path: '/rest/pat/latest/tokens', tag: TAG, access: 'user', summary: "The caller's tokens (without raw values)", responses: { 200: json(z.array(token), 'The tokens') },
    handle: async (req, res, { tokens }) => {
      res.json((await tokens.list(currentUser(req).id)).map((t) => presentToken(t)));
    },
  },
  {
    method: 'delete', path: '/rest/pat/latest/tokens/{id}', tag: TAG, access: 'user', summary: 'Revoke a token (its owner or an administrator)', params: tokenIdParams,
    responses: { 204: empty('Revoked; it stops working at once') }, errors: [400, 403, 404],
    denied: "the token belongs to a system administrator and the caller, an administrator, is not one (only a system administrator revokes a system administrator's tokens)",
    handle: async (req, res, { tokens }) => {
      const { id } = parseWith(tokenIdParams, req.params);
      await tokens.revoke(currentUser(req), id);
      res.status(204).end();
    },
  },
];

/**
 * Any user's tokens for administrators, under `/latest/admin` (a router of its own after the users' one, whose
 * `/latest` guard has already refused anonymous callers). Revoking any token: the owner's path above.
 */
export const adminTokenEndpoints: Endpoint<TokensDeps>[] = [
  {
    method: 'get', path: '/rest/pat/latest/admin/tokens', tag: TAG, access: 'admin', summary: "A user's tokens with their last use (administrators; revoke with DELETE /latest/tokens/{id})",
    query: usernameQuery, responses: { 200: json(z.array(token), 'The tokens') }, errors: [400, 403, 404], denied: SYSADMIN_ONLY,
    handle: async (req, res, { tokens }) => {
      const { username } = parseWith(usernameQuery, req.query);
      res.json((await tokens.listOf(username, currentUser(req))).map((t) => presentToken(t)));
    },
  },
];

/** Every token endpoint, for the API document. */
export const tokenEndpoints: Endpoint<TokensDeps>[] = [...userTokenEndpoints, ...adminTokenEndpoints];
