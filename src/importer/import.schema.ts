import { z } from 'zod';
import { createUserBody, groupName } from '../directory/directory.schemas.ts';
import { importContent, importSpaces } from '../wiki/wiki-import.schema.ts';
import { importFields, importGrants, importIssueTypes, importProjects } from '../tracker/tracker-import.schema.ts';
import { importDefaults, importOptions } from '../fieldeditor/options/options-import.schema.ts';

/**
 * The `import FILE` document. Every section is optional; unknown top-level keys are refused so that a
 * typo does not silently import nothing. Features add their sections here.
 */
export const importDocumentSchema = z.strictObject({
  version: z.literal(1).optional(),
  groups: z.array(z.strictObject({ name: groupName })).optional(),
  users: z
    .array(
      createUserBody.extend({
        groups: z.array(groupName).optional(),
        active: z.boolean().optional(),
      }),
    )
    .optional(),
  spaces: importSpaces.optional(),
  content: importContent.optional(),
  projects: importProjects.optional(),
  issueTypes: importIssueTypes.optional(),
  fields: importFields.optional(),
  grants: importGrants.optional(),
  options: importOptions.optional(),
  defaults: importDefaults.optional(),
});

export type ImportDocument = z.input<typeof importDocumentSchema>;
export type ParsedImportDocument = z.output<typeof importDocumentSchema>;
