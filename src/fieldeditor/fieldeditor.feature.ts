// The field option editor as a feature (platform/feature.ts): the rooms' services, the API under its four base
// paths and API 1.1 under its two, the option-list fast path, the maintenance jobs and their journal, the
// import parts, and the grants' clean-up inside the directory's deletions.
import type { Feature, FeatureContext } from '../platform/feature.ts';
import type { DirectoryHookSet } from '../directory/directory-hooks.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { formRules } from '../platform/http/form-body.ts';
import { lazyDocument } from '../platform/openapi/document.ts';
import { pingDatabase } from '../platform/db/probes.ts';
import { notUnderThisVersion, renderFieldEditor } from './shared/fieldeditor.errors.ts';
import { FIELDEDITOR_BASES } from './shared/fieldeditor.paths.ts';
import { FieldAccess } from './access/access.service.ts';
import { SettingsService } from './settings/settings.service.ts';
import { FieldPages } from './fields/field-pages.cache.ts';
import { FieldsService } from './fields/fields.service.ts';
import { UserFieldReads } from './fields/user-reads.cache.ts';
import { FieldContextsService } from './fields/field-contexts.service.ts';
import { GrantsService } from './grants/grants.service.ts';
import { grantCleanupHooks } from './grants/grant-cleanup.hook.ts';
import { grantsImport } from './grants/grants.importer.ts';
import { directoryAuditHook } from './maintenance/directory-audit.hook.ts';
import { OptionsService } from './options/options.service.ts';
import { OptionsExport } from './options/options-export.service.ts';
import { OptionsSync } from './options/options-sync.service.ts';
import { SYNC_UPLOAD } from './options/options-bulk.endpoints.ts';
import { OptionListCache } from './options/options.cache.ts';
import { defaultsImport, optionsImport } from './options/options.importer.ts';
import { DefaultsService } from './options/defaults.service.ts';
import { OptionListFastPath } from './options/option-list-fast-path.ts';
import { healthEndpoints } from './health/health.endpoints.ts';
import { FIELDEDITOR_CLOSED_PREFIXES, fieldeditorEndpoints } from './fieldeditor.endpoints.ts';
import { fieldeditorApi } from './description/fieldeditor.api.ts';
import { compat11Mount } from './compat-1.1/compat.mount.ts';
import { EventLog } from './maintenance/event-log.ts';
import { maintenanceJobs } from './maintenance/maintenance.jobs.ts';
import { eventLogJournal } from './maintenance/job-journal.ts';
import { MaintenanceService } from './maintenance/maintenance.service.ts';

/** The field editor's services of one process (one set of caches shared by every base path). */
export interface Fieldeditor {
  access: FieldAccess;
  settings: SettingsService;
  fields: FieldsService;
  contexts: FieldContextsService;
  grants: GrantsService;
  options: OptionsService;
  /** Whole option trees out (issue 27). */
  optionsExport: OptionsExport;
  /** Whole option trees in, from a file (issue 27). */
  optionsSync: OptionsSync;
  defaults: DefaultsService;
  /** Every change above writes its entry here, in its own transaction. */
  eventLog: EventLog;
  maintenance: MaintenanceService;
}

function createFieldeditor({ db, config, jobs }: FeatureContext, eventLog: EventLog): Fieldeditor {
  const access = new FieldAccess(db.knex, db.changes);
  const settings = new SettingsService(db.knex, db.changes, eventLog);
  const grants = new GrantsService(db.knex, config.baseUrl, db.changes, access, eventLog);
  const defaults = new DefaultsService(db.knex, access, settings, db.changes, eventLog);
  return {
    access,
    settings,
    fields: new FieldsService(db.knex, access, new FieldPages(db.knex, db.changes, grants), settings, new UserFieldReads(db.changes), defaults),
    contexts: new FieldContextsService(db.knex, db.changes, access, eventLog),
    grants,
    options: new OptionsService(db.knex, access, settings, db.changes, eventLog, new OptionListCache(db.changes)),
    optionsExport: new OptionsExport(db.knex, access),
    optionsSync: new OptionsSync(db.knex, access, settings, db.changes, eventLog),
    defaults,
    eventLog,
    maintenance: new MaintenanceService(db.knex, jobs, eventLog),
  };
}

export function createFieldeditorFeature(ctx: FeatureContext): Feature<Fieldeditor, { directory: DirectoryHookSet }> {
  const { config, db } = ctx;
  // Off only in the event log's benchmark (platform/test-knobs.ts), to measure what writing it costs.
  const eventLog = new EventLog(ctx.knobs.eventLogWrites);
  const fe = createFieldeditor(ctx, eventLog);
  const { contextPath } = config;
  return {
    name: 'fieldeditor',
    services: fe,
    // After the tracker's parts: grants and options refer to its fields and contexts.
    importParts: [grantsImport, optionsImport, defaultsImport],
    jobs: maintenanceJobs({
      eventLog,
      changes: db.changes,
      authFailuresRetentionHours: config.authFailuresRetentionHours,
      lockoutMinutes: config.lockoutMinutes,
    }),
    jobJournal: eventLogJournal(eventLog),
    // Grants go with their user or group, in the deletion's transaction; the event log is the directory's audit trail.
    hooks: { directory: { ...grantCleanupHooks(eventLog), changed: directoryAuditHook(eventLog) } },
    http() {
      const document = lazyDocument(() => fieldeditorApi(FIELDEDITOR_BASES.map((b) => b.path)), contextPath);
      // The health check runs before authentication on every base path.
      const health = buildRouter(healthEndpoints, { ping: () => pingDatabase(db.knex) });
      const forms = formRules(fieldeditorEndpoints);
      return {
        apis: [
          // Each base path's router, from every endpoint's declaration (fieldeditor.endpoints.ts): the closed
          // prefixes' guards first (`/admin/customfields` for administrators, `/user` for any signed-in user, …),
          // then the routes, literal paths before parameters. Endpoints added after `1.2` answer 412 under 1.2.
          ...FIELDEDITOR_BASES.map(({ path, version }) => ({
            path,
            render: renderFieldEditor,
            before: [health],
            // The option sync's file (JSON or CSV), read by its route.
            uploads: [SYNC_UPLOAD],
            // The option writes a script may send as a form (Basic or Bearer, no cookie): form-body.ts.
            forms,
            routers: [
              buildRouter(
                fieldeditorEndpoints,
                { ...fe, document, basePath: contextPath + path },
                { version: { id: version, unavailable: notUnderThisVersion }, closedPrefixes: FIELDEDITOR_CLOSED_PREFIXES },
              ),
            ],
          })),
          compat11Mount(fe),
        ],
        fastPath: new OptionListFastPath({ contextPath, bases: FIELDEDITOR_BASES.map((b) => b.path), access: fe.access, options: fe.options }),
      };
    },
  };
}
