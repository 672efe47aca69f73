import type { Config } from './config.ts';
import type { Db } from './platform/db/knex.ts';
import type { Logger } from './platform/log/logger.ts';
import type { ImportPart } from './platform/import/import-part.ts';
import type { Feature, FeatureContext } from './platform/feature.ts';
import { DEFAULT_COST, PasswordHasher } from './platform/auth/password-hasher.ts';
import { HashPool } from './platform/auth/hash-pool.ts';
import { ClientKeys } from './platform/http/client-key.ts';
import { createLoginAudit } from './directory/login-audit.ts';
import { Authenticator } from './platform/auth/authenticator.ts';
import { authenticationStep } from './platform/auth/authenticate.ts';
import type { RequestStep } from './platform/http/pipeline.ts';
import { Metrics } from './platform/metrics/metrics.ts';
import { JobRunner } from './platform/jobs/job-runner.ts';
import { RateLimiter } from './platform/limits/rate-limiter.ts';
import { TrustedProxies } from './platform/http/client-address.ts';
import { createAuthStore } from './directory/auth-store.repository.ts';
import type { DirectoryService } from './directory/directory.service.ts';
import type { TokensService } from './directory/tokens.service.ts';
import type { DirectoryHookSet } from './directory/directory-hooks.ts';
import { createDirectoryFeature } from './directory/directory.feature.ts';
import type { WikiHookSet } from './wiki/content-indexer.ts';
import { createWikiFeature, type WikiServices } from './wiki/wiki.feature.ts';
import type { TrackerService } from './tracker/tracker.service.ts';
import { createTrackerFeature } from './tracker/tracker.feature.ts';
import type { CodeblocksService } from './codeblocks/download.service.ts';
import { createCodeblocksFeature } from './codeblocks/codeblocks.feature.ts';
import { createFieldeditorFeature, type Fieldeditor } from './fieldeditor/fieldeditor.feature.ts';
import type { SessionsService } from './web/sessions/sessions.service.ts';
import { createWebFeature } from './web/web.feature.ts';
import { createSessionResolver } from './web/sessions/session-resolver.ts';
import { createApidocsFeature } from './apidocs/apidocs.feature.ts';
import type { EventLogDeletionHook } from './fieldeditor/maintenance/event-log.ts';
import { createWebhooksFeature, type Webhooks } from './webhooks/webhooks.feature.ts';
import { createMigrationFeature } from './migration/migration.feature.ts';
import { NO_TEST_KNOBS, type TestKnobs } from './platform/test-knobs.ts';

/** The hooks the hosts offer: the directory's deletions and the wiki's saved bodies (docs/architecture.md). */
export interface HostHooks {
  directory?: DirectoryHookSet;
  wiki?: WikiHookSet;
  /** The field editor's event log: work done in the transaction that deletes old entries (webhooks' history). */
  eventLogDeleted?: EventLogDeletionHook;
}

/**
 * The composition root: every service of the process (or of one test), built once from the config and an
 * open database. The features come as one list (platform/feature.ts), hosts before the add-ons that extend
 * them; app.ts mounts their HTTP surfaces in that order, the importer runs their import parts in that order,
 * and their hooks and jobs are registered here, so dependencies point one way.
 */
export interface AppServices {
  config: Config;
  db: Db;
  log: Logger;
  hasher: PasswordHasher;
  authenticator: Authenticator;
  /** The request pipeline's authentication step (Basic, Bearer, the web session). */
  authentication: RequestStep;
  /** Every feature, in mount and import order. */
  features: readonly Feature<unknown, HostHooks>[];
  directory: DirectoryService;
  tokens: TokensService;
  wiki: WikiServices;
  tracker: TrackerService;
  codeblocks: CodeblocksService;
  fieldeditor: Fieldeditor;
  /** Webhook subscriptions and this node's delivery worker. */
  webhooks: Webhooks;
  /** Sign-in sessions of the web interface (the third credential, after Basic and Bearer). */
  sessions: SessionsService;
  /** This node's background job runner: started by server.ts after listen, stopped before the database closes. */
  jobs: JobRunner;
  /** The parts of the `import FILE` document, in the order they run. */
  importParts: readonly ImportPart[];
  /** Prometheus metrics; undefined while they are off (no METRICS_TOKEN and no METRICS_PORT). */
  metrics: Metrics | undefined;
  /** The rate limits' pipeline step and buckets; undefined with RATE_LIMITS=off. */
  rateLimiter: RateLimiter | undefined;
  /** The proxies of TRUST_PROXY; undefined when it names none (the socket's peer is the client). */
  trustedProxies: TrustedProxies | undefined;
}

/** Hands each feature's hooks to their host and its jobs (and journal) to the runner. */
function plugIn(
  features: readonly Feature<unknown, HostHooks>[],
  hosts: { directory: DirectoryService; wiki: WikiServices; fieldeditor: Fieldeditor },
  jobs: JobRunner,
): void {
  for (const feature of features) {
    if (feature.hooks?.eventLogDeleted) hosts.fieldeditor.eventLog.onDeleted(feature.hooks.eventLogDeleted);
    if (feature.hooks?.directory) hosts.directory.hooks.register(feature.hooks.directory);
    for (const indexer of feature.hooks?.wiki?.contentIndexers ?? []) hosts.wiki.indexers.register(indexer);
    for (const job of feature.jobs ?? []) jobs.register(job);
    if (feature.jobJournal) jobs.useJournal(feature.jobJournal);
  }
}

export function createServices(config: Config, db: Db, log: Logger, opts: { hasher?: PasswordHasher; knobs?: TestKnobs } = {}): AppServices {
  const { concurrency, queueSeconds } = config.loginHashes;
  const knobs = opts.knobs ?? NO_TEST_KNOBS;
  const hasher =
    opts.hasher ?? new PasswordHasher(knobs.hashCost ?? DEFAULT_COST, new HashPool({ concurrency: concurrency || undefined, maxWaitMs: queueSeconds * 1000 }));
  // Every per-address count (rate limits, failed logins, locks) keys a client the same way (IPv6 by network).
  const clientKeys = new ClientKeys(config.clientIpv6Prefix);
  const authenticator = new Authenticator({
    store: createAuthStore(db.knex),
    hasher,
    changes: db.changes,
    log,
    maxAttempts: config.maxAuthAttempts,
    lockoutMinutes: config.lockoutMinutes,
    addressLimit: config.loginFailuresPerAddress,
    clientKeys,
    delay: config.loginDelay,
  });
  const jobs = new JobRunner(db.knex, log, { ...config.jobs, holdMs: knobs.jobHoldMs });
  const ctx: FeatureContext = { config, db, log, hasher, authenticator, jobs, knobs };

  const directory = createDirectoryFeature(ctx);
  const wiki = createWikiFeature(ctx);
  const tracker = createTrackerFeature(ctx);
  const codeblocks = createCodeblocksFeature(ctx, wiki.services);
  const fieldeditor = createFieldeditorFeature(ctx);
  const web = createWebFeature(ctx);
  const webhooks = createWebhooksFeature(ctx);
  // Issue 31: the upload of a wiki space export (the command line's import-from uses the same writers).
  const migration = createMigrationFeature(ctx, wiki.services);
  const apidocs = createApidocsFeature(ctx);
  const features = [directory, wiki, tracker, codeblocks, fieldeditor, webhooks, migration, web, apidocs];
  plugIn(features, { directory: directory.services.directory, wiki: wiki.services, fieldeditor: fieldeditor.services }, jobs);
  authenticator.audit = createLoginAudit(db.knex, directory.services.directory.hooks);

  const rateLimiter = config.rateLimits && new RateLimiter(config.rateLimits, () => db.changes.nodes ?? 1, Date.now, clientKeys);
  return {
    config,
    db,
    log,
    hasher,
    authenticator,
    authentication: authenticationStep(authenticator, createSessionResolver(web.services)),
    features,
    ...directory.services,
    wiki: wiki.services,
    tracker: tracker.services,
    codeblocks: codeblocks.services,
    fieldeditor: fieldeditor.services,
    webhooks: webhooks.services,
    sessions: web.services,
    jobs,
    importParts: features.flatMap((f) => f.importParts ?? []),
    metrics: config.metrics ? new Metrics({ knex: db.knex, changes: db.changes, authenticator, jobs, rateLimiter, webhooks: webhooks.services.dispatcher }) : undefined,
    rateLimiter,
    trustedProxies: config.trustProxy.length > 0 ? new TrustedProxies(config.trustProxy) : undefined,
  };
}
