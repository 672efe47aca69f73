import type { Express, Request } from 'express';

/**
 * Express answers 304 from `res.send`/`res.json` whenever `req.fresh` holds, and its test counts
 * `If-None-Match: *` as a match even when the answer carries no ETag. The server keeps no validators for
 * those answers (the app's ETag setting is off; cached bodies answer their conditionals themselves, see
 * cached-body.ts), so here a request is fresh only when the answer has an ETag that If-None-Match names.
 */
export function useStrictFreshness(app: Express): void {
  Object.defineProperty(app.request, 'fresh', {
    configurable: true,
    get(this: Request): boolean {
      if (this.method !== 'GET' && this.method !== 'HEAD') return false;
      const status = this.res?.statusCode ?? 200;
      if ((status < 200 || status >= 300) && status !== 304) return false;
      const etag = this.res?.getHeader('ETag');
      const inm = this.headers['if-none-match'];
      if (typeof etag !== 'string' || inm === undefined) return false;
      const bare = (t: string) => (t.startsWith('W/') ? t.slice(2) : t);
      return inm.split(',').some((t) => t.trim() === '*' || bare(t.trim()) === bare(etag));
    },
  });
}
