import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Knex } from 'knex';
import type { Authenticator } from '../auth/authenticator.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { allCacheStats } from '../cache/cache-stats.ts';
import type { ChangeFeed } from '../events/change-feed.ts';
import { listRegisteredRoutes } from '../http/route-walk.ts';
import { RouteTimings, UNMATCHED_ROUTE } from './route-timings.ts';

declare module 'http' {
  interface IncomingMessage {
    /**
     * The route template of a request a fast path answered (the registered route's path without the context
     * path): the label Express's `req.route` would have given it.
     */
    routeTemplate?: string;
  }
}

export interface MetricsSources {
  knex: Knex;
  changes: ChangeFeed;
  authenticator: Authenticator;
  jobs: Pick<JobRunner, 'onRunFinished'>;
  /** The rate limits, when they are on. */
  rateLimiter?: RateLimiter | undefined;
  /** Webhook deliveries (src/webhooks): each attempt's outcome, and the lag read at each scrape. */
  webhooks?: DeliveryStats;
}

/** What the webhook worker tells the metrics (the platform knows no feature, only this shape). */
export interface DeliveryStats {
  observer: { attempted(outcome: 'delivered' | 'retried' | 'failed'): void } | undefined;
  lagSeconds(): Promise<number>;
}

/** The parts of tarn's pool (knex's connection pool) that tell how busy it is. */
interface PoolCounts {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * The Prometheus metrics of one process (see docs/observability.md). Hot paths only bump plain counters
 * (request timings, cache hits); prom-client turns them into text when `/metrics` is scraped, and asks the
 * pool, the change feed and the database for their state at that moment.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly timings = new RouteTimings();
  /** Route object (what Express puts on `req.route`) → its full path template, filled by indexRoutes. */
  private readonly templates = new WeakMap<object, string>();

  constructor(sources: MetricsSources) {
    const register = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.timings.register(this.registry);

    // Read, not incremented: each scrape copies the caches' own running totals (see cache-stats.ts).
    new Counter({
      name: 'addon_pair_cache_hits_total',
      help: 'Lookups an in-memory cache answered, by cache',
      labelNames: ['cache'],
      registers: register,
      collect() {
        this.reset();
        for (const [cache, stats] of allCacheStats()) this.inc({ cache }, stats.hits);
      },
    });
    new Counter({
      name: 'addon_pair_cache_misses_total',
      help: 'Lookups an in-memory cache could not answer (absent, expired, or bypassed while the change feed is down), by cache',
      labelNames: ['cache'],
      registers: register,
      collect() {
        this.reset();
        for (const [cache, stats] of allCacheStats()) this.inc({ cache }, stats.misses);
      },
    });

    const sent = new Counter({ name: 'addon_pair_change_feed_sent_total', help: 'Change notifications this process announced', registers: register });
    const received = new Counter({ name: 'addon_pair_change_feed_received_total', help: "Other processes' change notifications this process received", registers: register });
    const ackWait = new Histogram({
      name: 'addon_pair_change_feed_ack_wait_seconds',
      help: 'How long an announced change waited for the other nodes to acknowledge it',
      labelNames: ['outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2],
      registers: register,
    });
    const changes = sources.changes;
    changes.observer = {
      sent: () => sent.inc(),
      received: () => received.inc(),
      acknowledged: (seconds, complete) => ackWait.observe({ outcome: complete ? 'acknowledged' : 'timed_out' }, seconds),
    };
    new Gauge({
      name: 'addon_pair_change_feed_listener_up',
      help: '1 while this process listens for changes (its caches are in use), 0 while it reads everything from the database',
      registers: register,
      collect() {
        this.set(changes.live ? 1 : 0);
      },
    });

    const pool = () => (sources.knex.client as { pool?: Partial<PoolCounts> }).pool;
    new Gauge({
      name: 'addon_pair_db_pool_connections',
      help: 'Database connections of the pool by state: in_use, idle',
      labelNames: ['state'],
      registers: register,
      collect() {
        const p = pool();
        this.set({ state: 'in_use' }, p?.numUsed?.() ?? 0);
        this.set({ state: 'idle' }, p?.numFree?.() ?? 0);
      },
    });
    new Gauge({
      name: 'addon_pair_db_pool_waiting',
      help: 'Queries waiting for a database connection of the pool',
      registers: register,
      collect() {
        this.set(pool()?.numPendingAcquires?.() ?? 0);
      },
    });

    const refused = new Counter({ name: 'addon_pair_auth_failed_logins_total', help: 'Refused credentials by scheme and reason (failed: wrong, unknown or malformed; denied: the name is locked)', labelNames: ['scheme', 'reason'], registers: register });
    const locks = new Counter({ name: 'addon_pair_auth_accounts_locked_total', help: 'Locks this process set on a name for one client address after too many failed logins from it', registers: register });
    const delayed = new Counter({ name: 'addon_pair_auth_delayed_logins_total', help: 'Password checks this process made wait because their name failed too often from all addresses together', registers: register });
    // Requests refused by a limit, by API family and reason: the rate limits' buckets (credential, address) and
    // the login limits in front of the password hash (failed logins per address, the busy hash pool).
    const limited = new Counter({
      name: 'addon_pair_rate_limited_total',
      help: 'Requests refused by a limit (429, or 503 for a busy password check), by API family and reason: credential, address, failed_logins_per_address, hash_pool_busy',
      labelNames: ['family', 'reason'],
      registers: register,
    });
    if (sources.rateLimiter) sources.rateLimiter.observer = { limited: (family, reason) => limited.inc({ family, reason }) };
    sources.authenticator.observer = {
      loginRefused: (scheme, reason) => refused.inc({ scheme, reason }),
      accountLocked: () => locks.inc(),
      loginLimited: (reason) => limited.inc({ family: 'logins', reason }),
      loginDelayed: () => delayed.inc(),
    };
    new Gauge({
      name: 'addon_pair_cluster_nodes',
      help: 'Nodes listening on this database, this one included, as last counted (each takes 1/N of every rate limit)',
      registers: register,
      collect() {
        this.set(changes.nodes ?? 1);
      },
    });
    const jobRuns = new Counter({ name: 'addon_pair_job_runs_total', help: 'Background job runs this process finished, by job name and outcome', labelNames: ['job', 'outcome'], registers: register });
    const jobSeconds = new Counter({ name: 'addon_pair_job_run_seconds_total', help: 'Time spent in the job runs this process finished, by job name', labelNames: ['job'], registers: register });
    sources.jobs.onRunFinished((job, outcome, seconds) => {
      jobRuns.inc({ job, outcome });
      jobSeconds.inc({ job }, seconds);
    });
    const webhooks = sources.webhooks;
    if (webhooks) {
      const attempts = new Counter({
        name: 'addon_pair_webhook_deliveries_total',
        help: 'Webhook delivery attempts this process made, by outcome: delivered (2xx), retried (failed, tried again later), failed (given up after the retry period)',
        labelNames: ['outcome'],
        registers: register,
      });
      webhooks.observer = { attempted: (outcome) => attempts.inc({ outcome }) };
      new Gauge({
        name: 'addon_pair_webhook_lag_seconds',
        help: 'Age of the oldest field-editor event not yet delivered to an enabled subscription (0: none waiting), for the whole cluster',
        registers: register,
        async collect() {
          const s = await webhooks.lagSeconds().catch(() => undefined);
          if (s !== undefined) this.set(s);
        },
      });
    }
    const authenticator = sources.authenticator;
    new Gauge({
      name: 'addon_pair_auth_locked_accounts',
      help: 'Names locked now for at least one client address, in the whole cluster (read from the database at each scrape)',
      registers: register,
      async collect() {
        // A scrape while the database is away still answers everything else; the gauge keeps its last value.
        const n = await authenticator.lockedAccounts().catch(() => undefined);
        if (n !== undefined) this.set(n);
      },
    });
  }

  /**
   * Learns the route template of every route of `app` (without the context path, so labels are the same on
   * every deployment); call once, after all routes are registered.
   */
  indexRoutes(app: Express, contextPath = ''): void {
    for (const { route, path } of listRegisteredRoutes(app)) {
      if (!this.templates.has(route)) this.templates.set(route, path.startsWith(contextPath) ? path.slice(contextPath.length) || '/' : path);
    }
  }

  /**
   * On every finished request (the pipeline's request tracking): the matched route's template, never the raw
   * URL; for a fast path's answer, the template it named.
   */
  requestFinished(req: IncomingMessage, res: ServerResponse, seconds: number): void {
    const route = (req as { route?: object }).route;
    const template = req.routeTemplate ?? (route && this.templates.get(route)) ?? UNMATCHED_ROUTE;
    this.timings.record(template, req.method ?? '', res.statusCode, seconds);
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
