import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type Request } from 'express';
import type { Logger } from '../platform/log/logger.ts';
import { renderIndexHtml } from './index-html.ts';

/** Where `npm run build` puts the interface: next to the server bundle (dist/web), or dist/web from src/web. */
export function findAssetDir(): string | undefined {
  const here = import.meta.dirname;
  // dist/main.mjs, a chunk under dist/chunks/, or src/web/ when run from source.
  const candidates = [path.join(here, 'web'), path.resolve(here, '../web'), path.resolve(here, '../../dist/web')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'app.js')));
}

/**
 * Nothing this page loads may come from another origin, and no other site may frame it: the policy makes the
 * browser enforce what the build promises (no CDN, no inline script).
 */
const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * The web interface: its page at the root of the context path and its built assets under `/web/`. The page is
 * public (it holds no data); everything it shows comes from the REST endpoints with the session cookie.
 */
export function createStaticRouter(deps: {
  contextPath: string;
  log: Logger;
  hasLiveSession: (req: Request) => Promise<boolean>;
  assetDir?: string;
  /** LOCKOUT_MINUTES, for the sign-in form's words about a lock. */
  lockoutMinutes?: number;
}): Router {
  const r = Router();
  const dir = deps.assetDir ?? findAssetDir();
  if (!dir) deps.log.warn('the web interface is not built (no dist/web/app.js): run npm run build');
  const pages = { in: renderIndexHtml(deps.contextPath, true, deps.lockoutMinutes), out: renderIndexHtml(deps.contextPath, false, deps.lockoutMinutes) };

  r.get('/', async (req, res) => {
    res.set(SECURITY_HEADERS);
    if (!dir) {
      res.status(503).type('text/plain; charset=utf-8').send('The web interface is not built: run npm run build.\n');
      return;
    }
    const signedIn = await deps.hasLiveSession(req);
    // The page differs with the cookie: never cached, by the browser or by anything in between.
    res.set('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(signedIn ? pages.in : pages.out);
  });

  if (dir) {
    r.use(
      '/web',
      (_req, res, next) => {
        res.set(SECURITY_HEADERS);
        next();
      },
      // Names are not content-hashed, so the browser revalidates (ETag) instead of keeping a stale build.
      express.static(dir, { index: false, cacheControl: true, maxAge: 0, etag: true, dotfiles: 'ignore' }),
    );
  }
  return r;
}
