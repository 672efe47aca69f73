import { Router } from 'express';
import type { Db } from '../platform/db/knex.ts';
import type { ImportPart } from '../platform/import/import-part.ts';
import type { DirectoryHooks } from '../directory/directory-hooks.ts';
import { notUnderThisVersion, type ApiVersion } from './fieldeditor.errors.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { FieldAccess } from './access/access.service.ts';
import { SettingsService } from './settings/settings.service.ts';
import { FieldPages } from './fields/field-pages.cache.ts';
import { FieldsService } from './fields/fields.service.ts';
import { UserFieldReads } from './fields/user-reads.cache.ts';
import { FieldContextsService } from './fields/field-contexts.service.ts';
import { GrantsService } from './grants/grants.service.ts';
import { registerGrantCleanup } from './grants/grant-cleanup.hook.ts';
import { grantsImport } from './grants/grants.importer.ts';
import { OptionsService } from './options/options.service.ts';
import { OptionListCache } from './options/options.cache.ts';
import { defaultsImport, optionsImport } from './options/options.importer.ts';
import { DefaultsService } from './options/defaults.service.ts';
import { healthEndpoints } from './health/health.endpoints.ts';
import { FIELDEDITOR_CLOSED_PREFIXES, fieldeditorEndpoints } from './fieldeditor.endpoints.ts';
import type { DescriptionDeps } from './description/description.endpoints.ts';
import type { JobRunner } from '../platform/jobs/job-runner.ts';
import { EventLog } from './maintenance/event-log.ts';
import { registerMaintenanceJobs } from './maintenance/maintenance.jobs.ts';
import { pingDatabase } from '../platform/db/probes.ts';
import { MaintenanceService } from './maintenance/maintenance.service.ts';

/** Base paths the field editor answers under: its own name and the original product's, each in two versions. */
export const FIELDEDITOR_BASES: { path: string; version: ApiVersion }[] = [
  { path: '/rest/trackercustomfieldeditorplugin/1', version: '1' },
  { path: '/rest/trackercustomfieldeditorplugin/1.2', version: '1.2' },
  { path: '/rest/jiracustomfieldeditorplugin/1', version: '1' },
  { path: '/rest/jiracustomfieldeditorplugin/1.2', version: '1.2' },
];

/** The field editor's services of one process (one set of caches shared by every base path). */
export interface Fieldeditor {
  access: FieldAccess;
  settings: SettingsService;
  fields: FieldsService;
  contexts: FieldContextsService;
  grants: GrantsService;
  options: OptionsService;
  defaults: DefaultsService;
  /** Every change above writes its entry here, in its own transaction. */
  eventLog: EventLog;
  maintenance: MaintenanceService;
}

/** What the maintenance part needs from the process: the node's job runner and a few settings. */
export interface MaintenanceDeps {
  jobs: JobRunner;
  /** Benchmark only: false stops writing the event log (EVENT_LOG_WRITES=0). */
  eventLogWrites: boolean;
  authFailuresRetentionHours: number;
  lockoutMinutes: number;
}

/** Builds the services and registers the field editor's hook in the directory (grants go with their user or group). */
export function createFieldeditor(deps: {
  db: Db;
  baseUrl: string;
  directoryHooks: DirectoryHooks;
  maintenance: MaintenanceDeps;
}): Fieldeditor {
  const { db, baseUrl } = deps;
  const m = deps.maintenance;
  const eventLog = new EventLog(m.eventLogWrites);
  registerMaintenanceJobs(m.jobs, { eventLog, changes: db.changes, authFailuresRetentionHours: m.authFailuresRetentionHours, lockoutMinutes: m.lockoutMinutes });
  const access = new FieldAccess(db.knex, db.kind, db.changes);
  const settings = new SettingsService(db.knex, db.changes, eventLog);
  registerGrantCleanup(deps.directoryHooks, eventLog);
  const grants = new GrantsService(db.knex, baseUrl, db.changes, access, eventLog);
  const defaults = new DefaultsService(db.knex, access, settings, db.changes, eventLog);
  return {
    access,
    settings,
    fields: new FieldsService(db.knex, access, new FieldPages(db.knex, db.changes, grants), settings, new UserFieldReads(db.changes), defaults),
    contexts: new FieldContextsService(db.knex, db.changes, access, eventLog),
    grants,
    options: new OptionsService(db.knex, access, settings, db.changes, eventLog, new OptionListCache(db.changes)),
    defaults,
    eventLog,
    maintenance: new MaintenanceService(db.knex, m.jobs, eventLog),
  };
}

/** The field editor's parts of the import document, in the order they run (after the tracker's). */
export const fieldeditorImports: ImportPart[] = [grantsImport, optionsImport, defaultsImport];

/** Runs before authentication on every base path. */
export const createFieldeditorPublicRouters = (db: Db): Router[] => [
  buildRouter(healthEndpoints, { ping: () => pingDatabase(db.knex) }),
];

/**
 * The router of the field editor for one base path, from every endpoint's declaration (fieldeditor.endpoints.ts):
 * the closed prefixes' guards first (`/admin/customfields` for administrators, `/user` for any signed-in user,
 * …), then the routes, literal paths before parameters (`/contexts/permissions` before `/contexts/:contextId`,
 * `/options/default` before `/options/:optionId`). Endpoints added after `1.2` answer 412 under `version` 1.2.
 */
export function createFieldeditorRouters(fe: Fieldeditor, version: ApiVersion, description: DescriptionDeps): Router[] {
  return [
    buildRouter(
      fieldeditorEndpoints,
      { ...fe, ...description },
      { version: { id: version, unavailable: notUnderThisVersion }, closedPrefixes: FIELDEDITOR_CLOSED_PREFIXES },
    ),
  ];
}
