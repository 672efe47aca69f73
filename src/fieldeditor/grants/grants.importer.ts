import { z } from 'zod';
import { importPart } from '../../platform/import/import-part.ts';
import { userName, groupName } from '../../directory/directory.schemas.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { usersRepository } from '../../directory/users.repository.ts';
import { groupsRepository } from '../../directory/groups.repository.ts';
import { findContextIdForImport, findFieldForImport } from '../access/fields.repository.ts';
import { grantsRepository } from './grants.repository.ts';
import { importUnknownContext, importUnknownField, importUnknownPrincipal } from '../shared/fieldeditor.errors.ts';

/** A grant names its field by id or by name, and its context by id, name or `default` (none: global). */
export const importGrants = z.array(
  z
    .strictObject({
      fieldId: z.number().int().positive().optional(),
      fieldName: z.string().min(1).optional(),
      context: z.union([z.number().int().positive(), z.string().min(1)]).optional(),
      user: userName.optional(),
      group: groupName.optional(),
    })
    .refine((g) => (g.fieldId === undefined) !== (g.fieldName === undefined), 'Name the field by fieldId or fieldName (one of them).')
    .refine((g) => (g.user === undefined) !== (g.group === undefined), 'Name one user or one group.'),
);

/** Field-editor grants; an existing grant is skipped. Users and groups must exist. */
export const grantsImport = importPart({ grants: importGrants }, [TRACKER_TOPIC], async (trx, doc, { progress, summary }) => {
  const s = (summary.grants = { created: 0, skipped: 0 });
  for (const [i, g] of (doc.grants ?? []).entries()) {
    const where = `Grant ${i + 1}`;
    const field = await findFieldForImport(trx, g);
    if (!field) throw importUnknownField(where, g.fieldId ?? g.fieldName);
    let contextId: number | null = null;
    if (g.context !== undefined) {
      const id = await findContextIdForImport(trx, field.id, g.context);
      if (id === undefined) throw importUnknownContext(where, g.context);
      contextId = id;
    }
    const principal = g.user !== undefined ? { type: 'user' as const, name: g.user } : { type: 'group' as const, name: g.group ?? '' };
    const known = principal.type === 'user' ? usersRepository.findByName(trx, principal.name) : groupsRepository.findByName(trx, principal.name);
    if (!(await known)) {
      throw importUnknownPrincipal(where, principal.type, principal.name);
    }
    const existing = await grantsRepository.exists(trx, field.id, contextId, principal);
    if (existing) s.skipped++;
    else {
      await grantsRepository.add(trx, field.id, contextId, [principal]);
      s.created++;
    }
    if ((i + 1) % 100 === 0) progress(`grants: ${i + 1}`);
  }
});
