// The one way a feature plugs into the process (docs/architecture.md, "Features"). Every feature folder has a
// `*.feature.ts` whose factory answers a `Feature`: its services, its HTTP surface (built from its endpoint
// declarations), its parts of the import document, its jobs and its hooks into the hosts. services.ts builds
// the list; app.ts, the importer and the job runner read it. Nothing else knows which features exist.
import type { RequestHandler } from 'express';
import type { Config } from '../config.ts';
import type { Db } from './db/knex.ts';
import type { Logger } from './log/logger.ts';
import type { ImportPart } from './import/import-part.ts';
import type { JobRunner } from './jobs/job-runner.ts';
import type { JobDefinition, JobJournal } from './jobs/job-types.ts';
import type { ApiMount } from './http/mount-api.ts';
import type { FastPath } from './http/fast-path.ts';
import type { PasswordHasher } from './auth/password-hasher.ts';
import type { Authenticator } from './auth/authenticator.ts';
import type { TestKnobs } from './test-knobs.ts';

/** What the process gives every feature's factory. */
export interface FeatureContext {
  config: Config;
  db: Db;
  log: Logger;
  hasher: PasswordHasher;
  authenticator: Authenticator;
  /** The node's job runner, for features that ask it to run a job now (jobs are declared in `Feature.jobs`). */
  jobs: JobRunner;
  /** Test and benchmark knobs (platform/test-knobs.ts); NO_TEST_KNOBS in a server run by people. */
  knobs: TestKnobs;
}

/** A router outside every API, under a prefix of its own (no API step runs before it). */
export interface OpenRoute {
  path: string;
  router: RequestHandler;
}

/** A feature's HTTP surface for one application (built anew for each app, so two apps share no router). */
export interface FeatureHttp {
  /** Mounted before every API: health checks, documents, redirects that anyone may follow. */
  open?: OpenRoute[];
  /**
   * The feature's APIs, mounted in list order after the open routes. A mount whose path an earlier feature
   * already declared joins that mount: its routers are tried after the earlier ones (the tracker's
   * resources under the directory's `/rest/api/2`). Both must then agree on everything but the routers.
   */
  apis?: ApiMount[];
  /** Mounted after every API (the web interface's page at the root of the context path). */
  last?: RequestHandler[];
  /** A cache-hit answerer in front of Express for some of this feature's GET routes (fast-path.ts). */
  fastPath?: FastPath;
}

/** Work a feature does in the background on every node (webhook deliveries): started after listen, stopped on SIGTERM. */
export interface BackgroundWorker {
  start(): void;
  /** Stops taking work and waits for what is under way. */
  stop(): Promise<void>;
}

/**
 * One feature of the process. `H` is the shape of the hooks the hosts offer (services.ts names it): a feature
 * hands its hook implementations over as data, and the composition root registers them with their host, so a
 * host never imports the features that extend it.
 */
export interface Feature<S = unknown, H = never> {
  /** The feature's folder name; fast paths and logs are keyed by it. */
  readonly name: string;
  /** Its services, for the other features' factories, the CLI and the tests. */
  readonly services: S;
  /** Its endpoints, routers and fast paths for one application. */
  http?(): FeatureHttp;
  /** Its parts of the `import FILE` document, in the order they run (the features' order comes first). */
  readonly importParts?: readonly ImportPart[];
  /** Its background jobs, registered with the node's runner. */
  readonly jobs?: readonly JobDefinition[];
  /** Its background workers, started and stopped with the node's job runner (server.ts). */
  readonly workers?: readonly BackgroundWorker[];
  /** Where the runner records the start and end of every job run (at most one feature keeps the journal). */
  readonly jobJournal?: JobJournal;
  /** What it does inside a host's own work (an index written with each saved page, grants gone with a user). */
  readonly hooks?: H;
}
