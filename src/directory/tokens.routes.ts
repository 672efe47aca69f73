import { Router } from 'express';
import { currentUser, requireUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import { presentToken, type TokensService } from './tokens.service.ts';
import { createTokenBody, tokenIdParams } from './directory.schemas.ts';

/** Personal access tokens under /rest/pat/latest: each user manages its own. */
export function createTokensRouter({ tokens }: { tokens: TokensService }): Router {
  const r = Router();
  r.use(requireUser);

  r.post('/tokens', async (req, res) => {
    const body = parseWith(createTokenBody, req.body, 'body');
    const { row, rawToken } = await tokens.create(currentUser(req).id, body.name, body.expirationDuration, body.scope);
    res.status(201).json(presentToken(row, rawToken));
  });

  r.get('/tokens', async (req, res) => {
    res.json((await tokens.list(currentUser(req).id)).map((t) => presentToken(t)));
  });

  r.delete('/tokens/:id', async (req, res) => {
    const { id } = parseWith(tokenIdParams, req.params);
    await tokens.revoke(currentUser(req), id);
    res.status(204).end();
  });

  return r;
}
