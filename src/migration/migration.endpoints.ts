// The migration API under /rest/addon-pair/1 (issue 31), each endpoint declared once (docs/openapi.md): a system
// administrator uploads a wiki space export and gets the import's report. See docs/migration.md.
import { parseWith } from '../platform/http/validate.ts';
import { uploadType } from '../platform/http/upload.ts';
import { hostJsonError } from '../platform/http/renderers.openapi.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { json } from '../platform/openapi/operation.ts';
import type { MigrationService } from './migration.service.ts';
import { notAnExportType } from './migration.errors.ts';
import { migrationReportJson, WIKI_EXPORT_PATH, WIKI_EXPORT_UPLOAD, wikiExportQuery } from './migration.schemas.ts';

export interface MigrationEndpointDeps {
  migration: MigrationService;
}

export const MIGRATION_TAG = 'Migration';

export const migrationEndpoints: Endpoint<MigrationEndpointDeps>[] = [
  {
    method: 'post', path: WIKI_EXPORT_PATH, tag: MIGRATION_TAG, access: 'sysadmin', query: wikiExportQuery, bodyOptional: false,
    summary: "Import a wiki space export (the zip of the wiki's XML export, or its entities.xml) and answer the report",
    description:
      'The body is the export file itself, `application/zip` or `application/xml`, up to MIGRATION_UPLOAD_MAX_MB (2048 MB). Each space is ' +
      'imported in one transaction: page and macro ids are kept where free and mapped (and reported) where taken, users are created ' +
      'without a usable password (listed in `usersWithoutPassword`), and a re-run writes only what changed. `dryRun=true` runs the same ' +
      'import and rolls it back. A unit that failed is reported with its reason (the answer is still 200); an export that cannot be ' +
      'read answers 400 and writes nothing. The same as `addon-pair import-from wiki-export FILE` (docs/migration.md).',
    responses: {
      200: json(migrationReportJson, 'The report: one unit per space, with counts, mapped ids, what was not imported, and each outcome'),
      413: json(hostJsonError, 'The export is larger than MIGRATION_UPLOAD_MAX_MB'),
      415: json(hostJsonError, 'The body is not application/zip or application/xml (or is compressed)'),
    },
    errors: [400],
    handle: async (req, res, { migration }) => {
      const { space, dryRun } = parseWith(wikiExportQuery, req.query, 'query');
      const type = uploadType(req);
      if (!WIKI_EXPORT_UPLOAD.types.includes(type)) throw notAnExportType(type);
      res.json(await migration.importWikiExport(req, type, { spaces: space, dryRun }));
    },
  },
];
