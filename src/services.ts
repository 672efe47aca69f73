import type { RequestHandler } from 'express';
import type { Config } from './config.ts';
import type { Db } from './platform/db/knex.ts';
import type { Logger } from './platform/log/logger.ts';
import { EventBus } from './platform/events/event-bus.ts';
import { PasswordHasher } from './platform/auth/password-hasher.ts';
import { Authenticator } from './platform/auth/authenticator.ts';
import { createAuthenticate } from './platform/auth/authenticate.ts';
import { createAuthStore } from './directory/auth-store.repository.ts';
import { DirectoryService } from './directory/directory.service.ts';
import { TokensService } from './directory/tokens.service.ts';
import type { CodeblocksService } from './codeblocks/download.service.ts';
import { createCodeblocksService } from './codeblocks/codeblocks.module.ts';
import { createWikiServices, type WikiServices } from './wiki/wiki.module.ts';
import { createFieldeditorOptions, type FieldeditorOptions } from './fieldeditor/options/options.module.ts';
import { TrackerService } from './tracker/tracker.service.ts';
import { GrantsService } from './fieldeditor/grants/grants.service.ts';
import { FieldPages } from './fieldeditor/fields/field-pages.cache.ts';
import { subscribeGrantCleanup } from './fieldeditor/grants/user-deleted.hook.ts';

/**
 * Everything the routers and commands need, built once per process (or per test) from the config and an
 * open database. Features add their services here.
 */
export interface AppServices {
  config: Config;
  db: Db;
  log: Logger;
  events: EventBus;
  hasher: PasswordHasher;
  authenticator: Authenticator;
  authenticate: RequestHandler;
  directory: DirectoryService;
  tokens: TokensService;
  codeblocks: CodeblocksService;
  wiki: WikiServices;
  fieldeditorOptions: FieldeditorOptions;
  tracker: TrackerService;
  fieldeditorGrants: GrantsService;
  fieldPages: FieldPages;
}

export function createServices(config: Config, db: Db, log: Logger, opts: { hasher?: PasswordHasher } = {}): AppServices {
  const events = new EventBus(log);
  const hasher = opts.hasher ?? new PasswordHasher();
  const authenticator = new Authenticator({
    store: createAuthStore(db.knex),
    hasher,
    changes: db.changes,
    log,
    maxAttempts: config.maxAuthAttempts,
    lockoutMinutes: config.lockoutMinutes,
  });
  const fieldeditorGrants = new GrantsService(db.knex, config.baseUrl, db.changes);
  subscribeGrantCleanup(events, fieldeditorGrants, log);
  return {
    config,
    db,
    log,
    events,
    hasher,
    authenticator,
    authenticate: createAuthenticate(authenticator),
    directory: new DirectoryService(db.knex, hasher, events, db.changes),
    tokens: new TokensService(db.knex, db.changes),
    codeblocks: createCodeblocksService(config, db, log),
    wiki: createWikiServices(db.knex, db.changes),
    fieldeditorOptions: createFieldeditorOptions(db, events),
    tracker: new TrackerService(db.knex, db.changes),
    fieldeditorGrants,
    fieldPages: new FieldPages(db.knex, db.changes),
  };
}
