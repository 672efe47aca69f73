// The rate limits (docs/configuration.md, "Limits"): a step of the request pipeline, after authentication, so it
// runs on every road a request can take (fast-path answers included) and knows the caller. Token buckets per
// credential and API family, and per client address; an exceeded limit answers 429 in the API's own format.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateLimit } from '../../config.ts';
import { clientAddress } from '../http/client-address.ts';
import { ClientKeys } from '../http/client-key.ts';
import { rateLimited } from '../http/platform.errors.ts';
import type { ApiInfo, RequestStep, StepNext } from '../http/pipeline.ts';
import { BucketTable, type Bucket } from './token-buckets.ts';

/**
 * The API families, each with a limit of its own: `downloads` the code-block API, `logins` the requests that
 * verify a password (the sign-in, a Basic header the credential cache did not know), `reads` any other GET or
 * HEAD, `writes` any other method.
 */
export type RateFamily = 'downloads' | 'reads' | 'writes' | 'logins';
/** Which bucket refused: the caller's (its credential's, for its family) or its address's. */
export type LimitReason = 'credential' | 'address';

declare module 'http' {
  interface IncomingMessage {
    /** Set by the authentication step when this request itself ran the slow password check (a login). */
    passwordVerified?: boolean;
  }
}

export interface RateLimitSettings {
  downloads?: RateLimit | undefined;
  reads?: RateLimit | undefined;
  writes?: RateLimit | undefined;
  logins?: RateLimit | undefined;
  perAddress?: RateLimit | undefined;
}

/** Told about refused requests, for the metrics. */
export interface RateLimitObserver {
  limited(family: RateFamily, reason: LimitReason): void;
}

/** One limit and the buckets it keeps: by user id (Basic, sessions), by token id (Bearer), by address. */
class Limit {
  readonly limitText: string;
  readonly users = new BucketTable<number>();
  readonly tokens = new BucketTable<number>();
  readonly addresses = new BucketTable<string>();
  constructor(readonly rate: RateLimit) {
    this.limitText = String(rate.burst);
  }
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** The request's family: what the authentication step marked, the mount's family, then the method. */
function familyOf(req: IncomingMessage, api: ApiInfo | undefined): RateFamily {
  if (req.passwordVerified === true) return 'logins';
  if (api?.family === 'downloads') return 'downloads';
  const method = req.method;
  if (method === 'GET' || method === 'HEAD') return 'reads';
  if (method === 'POST' && api?.loginPaths !== undefined) {
    // As Express routes: any case, one optional trailing slash. Inside a mount Express has cut the mount's path
    // from `url`; `originalUrl` keeps the whole (on a fast path's road `url` is the whole).
    let path = pathOf((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').toLowerCase();
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (api.loginPaths.includes(path)) return 'logins';
  }
  return 'writes';
}

/**
 * The limits of one process. With several nodes on one database each takes its share (1/N of the rate and of
 * the burst, N the listening nodes the change feed counted), so a credential's limit holds for the cluster
 * without any I/O on the hot path (docs/operations.md, "Rate limits in a cluster").
 */
export class RateLimiter {
  observer: RateLimitObserver | undefined;
  private readonly families: Record<RateFamily, Limit | undefined>;
  private readonly perAddress: Limit | undefined;
  readonly step: RequestStep;

  constructor(
    settings: RateLimitSettings,
    private readonly nodes: () => number = () => 1,
    private readonly now: () => number = Date.now,
    /** How an address is counted: IPv6 by its network, every spelling of one address as one (client-key.ts). */
    private readonly keys: ClientKeys = new ClientKeys(),
  ) {
    const limit = (rate: RateLimit | undefined) => (rate ? new Limit(rate) : undefined);
    this.families = { downloads: limit(settings.downloads), reads: limit(settings.reads), writes: limit(settings.writes), logins: limit(settings.logins) };
    this.perAddress = limit(settings.perAddress);
    this.step = { name: 'rate-limits', run: (req, res, next, api) => this.run(req, res, next, api) };
  }

  private run(req: IncomingMessage, res: ServerResponse, next: StepNext, api: ApiInfo | undefined): void {
    const family = familyOf(req, api);
    const own = this.families[family];
    const perAddress = this.perAddress;
    if (own === undefined && perAddress === undefined) return next();
    const now = this.now();
    const n = Math.max(1, this.nodes());
    const address = this.keys.of(clientAddress(req));

    // The caller's bucket: its token (Bearer) or its user (Basic, session); a login without a caller yet (the
    // sign-in form) by its address. Anonymous requests have only the address's bucket.
    let mine: Bucket | undefined;
    let mineBy: LimitReason = 'credential';
    if (own !== undefined) {
      const perMs = own.rate.perSecond / 1000 / n;
      const burst = own.rate.burst / n;
      const user = req.user;
      if (user !== undefined) mine = user.tokenId !== undefined ? own.tokens.refill(user.tokenId, now, perMs, burst) : own.users.refill(user.id, now, perMs, burst);
      else if (family === 'logins' && address !== undefined) {
        mine = own.addresses.refill(address, now, perMs, burst);
        mineBy = 'address';
      }
    }
    let theirs: Bucket | undefined;
    if (perAddress !== undefined && address !== undefined) {
      theirs = perAddress.addresses.refill(address, now, perAddress.rate.perSecond / 1000 / n, perAddress.rate.burst / n);
    }

    // A refused request takes no token from either bucket.
    if (mine !== undefined && mine.tokens < 1) return this.refuse(res, next, family, mineBy, mine, own!, n, now);
    if (theirs !== undefined && theirs.tokens < 1) return this.refuse(res, next, family, 'address', theirs, perAddress!, n, now);
    if (mine !== undefined) mine.tokens -= 1;
    if (theirs !== undefined) theirs.tokens -= 1;
    if (mine !== undefined) this.show(res, mine, own!, n, now);
    else if (theirs !== undefined) this.show(res, theirs, perAddress!, n, now);
    next();
  }

  private refuse(res: ServerResponse, next: StepNext, family: RateFamily, reason: LimitReason, bucket: Bucket, limit: Limit, n: number, now: number): void {
    this.show(res, bucket, limit, n, now);
    const perMs = limit.rate.perSecond / 1000 / n;
    this.observer?.limited(family, reason);
    next(rateLimited(Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)), family, reason));
  }

  /**
   * The headers of the bucket that decided: the limit as configured for the cluster (the burst), what is left
   * (this node's share scaled up to the cluster) and when the bucket is full again (Unix time, seconds).
   */
  private show(res: ServerResponse, bucket: Bucket, limit: Limit, n: number, now: number): void {
    const { perSecond, burst } = limit.rate;
    const remaining = Math.min(burst, Math.floor(bucket.tokens * n + 1e-9));
    const fullInMs = ((burst / n - bucket.tokens) * 1000 * n) / perSecond;
    res.setHeader('X-RateLimit-Limit', limit.limitText);
    res.setHeader('X-RateLimit-Remaining', remaining > 0 ? remaining : 0);
    res.setHeader('X-RateLimit-Reset', Math.ceil((now + (fullInMs > 0 ? fullInMs : 0)) / 1000));
  }
}
