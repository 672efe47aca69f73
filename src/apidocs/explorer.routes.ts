import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router, type Response } from 'express';
import { EXPLORER_CSP, EXPLORER_SCRIPT, explorerHtml, type ExplorerDocument } from './explorer.page.ts';

/** The only files of swagger-ui-dist the page uses; nothing else of node_modules is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const distDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The offline API explorer (for anyone, like the descriptions it shows): the page, its start-up script and
 * Swagger UI's files from the installed package. Mounted at its own path, so no other request enters it.
 * `Referrer-Policy: no-referrer`: a link followed from a described operation never tells another site the
 * server's address.
 */
export function createExplorerRouter(documents: ExplorerDocument[]): Router {
  const r = Router({ strict: true, caseSensitive: true });
  const html = explorerHtml(documents);
  const dir = distDir();
  const send = (res: Response, type: string, body: string) => {
    res.set({ 'Content-Type': type, 'Content-Security-Policy': EXPLORER_CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-cache' });
    res.send(body);
  };

  r.get('/', (req, res) => {
    // The page's links are relative: without the trailing slash they would miss the folder.
    const path = req.originalUrl.split('?')[0]!;
    if (!path.endsWith('/')) return res.redirect(301, `${path}/`);
    send(res, 'text/html; charset=utf-8', html);
  });
  r.get('/explorer.js', (_req, res) => send(res, 'text/javascript; charset=utf-8', EXPLORER_SCRIPT));
  r.get('/assets/:file', (req, res, next) => {
    const file = req.params.file;
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return next();
    res.sendFile(join(dir, file), { headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' } }, (err) => {
      if (err) next(err);
    });
  });
  return r;
}
