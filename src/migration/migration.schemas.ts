// The migration API's request and answer shapes (zod: validation and the OpenAPI document from one schema).
import { z } from 'zod';
import type { UploadRule } from '../platform/http/upload.ts';

export const MIGRATION_API = '/rest/addon-pair/1';
export const WIKI_EXPORT_PATH = '/rest/addon-pair/1/migration/wiki-export';

/** The export is the body itself, read by its route (upload.ts): a zip, or a bare entities.xml. */
export const WIKI_EXPORT_UPLOAD: UploadRule = { path: /\/migration\/wiki-export\/?$/, types: ['application/zip', 'application/xml', 'text/xml'] };

const flag = z.stringbool({ error: 'must be true or false' });

export const wikiExportQuery = z.object({
  space: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean)))
    .describe('Space keys to import (repeat the parameter, or separate by commas); all spaces of the export when absent'),
  dryRun: flag.default(false).describe('true: run the import in a transaction and roll it back (exact counts, nothing written)'),
});

const counts = z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() });

export const migrationReportJson = z
  .object({
    source: z.string().describe('What was read (never credentials)'),
    dryRun: z.boolean(),
    units: z.array(
      z.object({
        kind: z.enum(['space', 'field']),
        name: z.string(),
        outcome: z.enum(['imported', 'unchanged', 'failed', 'would-import']),
        reason: z.string().optional().describe('Why the unit failed, in one line'),
        counts: z.record(z.string(), counts).describe('Per kind of record'),
        mapped: z.array(z.object({ kind: z.string(), from: z.union([z.number(), z.string()]), to: z.union([z.number(), z.string()]) })).describe('Ids that were taken here and got a new one'),
        skipped: z.record(z.string(), z.number().int()).describe('What was not imported, counted by reason'),
        items: z
          .array(
            z.object({
              kind: z.enum(['page', 'blogpost', 'comment']),
              id: z.number().int().describe("The source's id"),
              localId: z.number().int().optional().describe('Our id of a hidden item (the one to lift the restriction of)'),
              title: z.string(),
              outcome: z.enum(['hidden', 'not imported']),
              reason: z.string(),
            }),
          )
          .optional()
          .describe('Each content item imported hidden (restricted to nobody until an administrator sets its restriction) or not imported, with the reason'),
        nobodyReads: z.boolean().optional().describe('True when no user or group may read the space yet: grant read (Spaces screen, or POST /rest/api/space/{key}/permission)'),
      }),
    ),
    usersWithoutPassword: z.array(z.string()).describe('Users created without a usable password: set one (`addon-pair user passwd NAME`)'),
    warnings: z.array(z.string()),
  })
  .meta({ title: 'MigrationReport' });
