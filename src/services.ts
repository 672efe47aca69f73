import type { Config } from './config.ts';
import type { Db } from './platform/db/knex.ts';
import type { Logger } from './platform/log/logger.ts';
import type { ImportPart } from './platform/import/import-part.ts';
import { PasswordHasher } from './platform/auth/password-hasher.ts';
import { Authenticator } from './platform/auth/authenticator.ts';
import { authenticationStep } from './platform/auth/authenticate.ts';
import type { RequestStep } from './platform/http/pipeline.ts';
import { createAuthStore } from './directory/auth-store.repository.ts';
import { DirectoryService } from './directory/directory.service.ts';
import { TokensService } from './directory/tokens.service.ts';
import { directoryImport } from './directory/directory.importer.ts';
import { ContentIndexers } from './wiki/content-indexer.ts';
import { createWikiServices, type WikiServices } from './wiki/wiki.module.ts';
import { wikiImports } from './wiki/wiki.importer.ts';
import { TrackerService } from './tracker/tracker.service.ts';
import { trackerCatalogImport, trackerFieldsImport } from './tracker/tracker.importer.ts';
import type { CodeblocksService } from './codeblocks/download.service.ts';
import { createCodeblocksService } from './codeblocks/codeblocks.module.ts';
import { codeboxIndexer } from './codeblocks/codebox-indexer.ts';
import { createFieldeditor, fieldeditorImports, type Fieldeditor } from './fieldeditor/fieldeditor.module.ts';
import { Metrics } from './platform/metrics/metrics.ts';
import { JobRunner } from './platform/jobs/job-runner.ts';
import type { SessionsService } from './web/sessions/sessions.service.ts';
import { createSessionsService } from './web/web.module.ts';
import { createSessionResolver } from './web/sessions/session-resolver.ts';
import { RateLimiter } from './platform/limits/rate-limiter.ts';
import { TrustedProxies } from './platform/http/client-address.ts';

/**
 * The composition root: every service of the process (or of one test), built once from the config and an
 * open database. Host features (directory, wiki, tracker) are built first and take hooks; the add-ons
 * (code blocks, field editor) register theirs there, so dependencies point one way (docs/architecture.md).
 */
export interface AppServices {
  config: Config;
  db: Db;
  log: Logger;
  hasher: PasswordHasher;
  authenticator: Authenticator;
  /** The request pipeline's authentication step (Basic, Bearer, the web session). */
  authentication: RequestStep;
  directory: DirectoryService;
  tokens: TokensService;
  wiki: WikiServices;
  tracker: TrackerService;
  codeblocks: CodeblocksService;
  fieldeditor: Fieldeditor;
  /** This node's background job runner: started by server.ts after listen, stopped before the database closes. */
  jobs: JobRunner;
  /** The parts of the `import FILE` document, in the order they run. */
  importParts: readonly ImportPart[];
  /** Prometheus metrics; undefined while they are off (no METRICS_TOKEN and no METRICS_PORT). */
  metrics: Metrics | undefined;
  /** Sign-in sessions of the web interface (the third credential, after Basic and Bearer). */
  sessions: SessionsService;
  /** The rate limits' pipeline step and buckets; undefined with RATE_LIMITS=off. */
  rateLimiter: RateLimiter | undefined;
  /** The proxies of TRUST_PROXY; undefined when it names none (the socket's peer is the client). */
  trustedProxies: TrustedProxies | undefined;
}

export function createServices(config: Config, db: Db, log: Logger, opts: { hasher?: PasswordHasher } = {}): AppServices {
  const hasher = opts.hasher ?? new PasswordHasher();
  const authenticator = new Authenticator({
    store: createAuthStore(db.knex),
    hasher,
    changes: db.changes,
    log,
    maxAttempts: config.maxAuthAttempts,
    lockoutMinutes: config.lockoutMinutes,
    addressLimit: config.loginFailuresPerAddress,
  });
  const directory = new DirectoryService(db.knex, hasher, db.changes);
  const indexers = new ContentIndexers();
  indexers.register(codeboxIndexer);
  const jobs = new JobRunner(db.knex, log, config.jobs);
  const sessions = createSessionsService(config, db, authenticator, log);
  const { changes } = db;
  const rateLimiter = config.rateLimits && new RateLimiter(config.rateLimits, () => changes.nodes ?? 1);
  return {
    config,
    db,
    log,
    hasher,
    authenticator,
    authentication: authenticationStep(authenticator, createSessionResolver(sessions)),
    directory,
    tokens: new TokensService(db.knex, db.changes),
    wiki: createWikiServices(db.knex, db.changes, indexers),
    tracker: new TrackerService(db.knex, db.changes),
    codeblocks: createCodeblocksService(config, db, log),
    fieldeditor: createFieldeditor({
      db,
      baseUrl: config.baseUrl,
      directoryHooks: directory.hooks,
      maintenance: {
        jobs,
        eventLogWrites: config.eventLogWrites,
        authFailuresRetentionHours: config.authFailuresRetentionHours,
        lockoutMinutes: config.lockoutMinutes,
      },
    }),
    jobs,
    importParts: [directoryImport, ...wikiImports(indexers), trackerCatalogImport, trackerFieldsImport, ...fieldeditorImports],
    metrics: config.metrics ? new Metrics({ knex: db.knex, changes: db.changes, authenticator, jobs, rateLimiter }) : undefined,
    sessions,
    rateLimiter,
    trustedProxies: config.trustProxy.length > 0 ? new TrustedProxies(config.trustProxy) : undefined,
  };
}
