import type { Knex } from 'knex';
import { badRequest } from '../platform/http/app-error.ts';
import type { SectionImporter } from '../importer/import.service.ts';
import { grantsRepository } from '../fieldeditor/grants/grants.repository.ts';
import { catalogRepository, bumpSequence } from './catalog.repository.ts';
import { fieldsRepository } from './fields.repository.ts';
import { trackerRules, defaultContextName, DEFAULT_CONTEXT_DESCRIPTION } from './tracker.service.ts';

const CHUNK = 500;

/** Projects (skipped when the key exists) and issue types (skipped when the name exists). */
export const importTrackerCatalog: SectionImporter = async (trx, doc, _ctx, _progress, summary) => {
  const p = (summary.projects = { created: 0, skipped: 0 });
  for (const item of doc.projects ?? []) {
    if (await catalogRepository.findProjectByKey(trx, item.key)) p.skipped++;
    else {
      await trackerRules.createProject(trx, item);
      p.created++;
    }
  }
  const t = (summary.issueTypes = { created: 0, skipped: 0 });
  for (const item of doc.issueTypes ?? []) {
    if (await catalogRepository.findIssueTypeByName(trx, item.name)) t.skipped++;
    else {
      await trackerRules.createIssueType(trx, item);
      t.created++;
    }
  }
  if (p.created > 0) await bumpSequence(trx, 'projects');
  if (t.created > 0) await bumpSequence(trx, 'issue_types');
};

/**
 * Custom fields with their default context (and optional further contexts). A field is skipped when its
 * explicit id exists, or (without id) when a field of the same name and type exists, so a re-import is
 * harmless. Fields are inserted in batches of 500: seeding tens of thousands stays a few dozen statements.
 */
export const importTrackerFields: SectionImporter = async (trx, doc, _ctx, progress, summary) => {
  const s = (summary.fields = { created: 0, skipped: 0 });
  const c = (summary.contexts = { created: 0, skipped: 0 });
  const items = doc.fields ?? [];
  for (let i = 0; i < items.length; i += CHUNK) {
    const chunk = items.slice(i, i + CHUNK);
    const ids = chunk.flatMap((f) => (f.id === undefined ? [] : [f.id]));
    const takenIds = new Set((await trx('custom_fields').whereIn('id', ids).select<{ id: number }[]>('id')).map((r) => r.id));
    const named = await trx('custom_fields')
      .whereIn('name_key', chunk.map((f) => f.name.toLowerCase()))
      .select<{ name_key: string; type_key: string; id: number }[]>('name_key', 'type_key', 'id');
    const byName = new Map(named.map((r) => [`${r.name_key}\u0000${r.type_key}`, r.id]));
    const fresh = chunk.filter((f) => (f.id !== undefined ? !takenIds.has(f.id) : !byName.has(`${f.name.toLowerCase()}\u0000${f.type}`)));
    s.skipped += chunk.length - fresh.length;
    if (fresh.length === 0) continue;
    const rows = await trx('custom_fields')
      .insert(fresh.map((f) => ({ ...(f.id === undefined ? {} : { id: f.id }), name: f.name, name_key: f.name.toLowerCase(), description: f.description ?? '', type_key: f.type })))
      .returning<{ id: number }[]>('id');
    await trx('field_contexts').insert(
      fresh.map((f, k) => ({
        ...(f.defaultContextId === undefined ? {} : { id: f.defaultContextId }),
        field_id: rows[k]?.id,
        name: defaultContextName(f.name),
        description: DEFAULT_CONTEXT_DESCRIPTION,
        is_default: true,
      })),
    );
    s.created += fresh.length;
    for (const [k, f] of fresh.entries()) {
      for (const ctx of f.contexts ?? []) await importContext(trx, rows[k]?.id ?? 0, ctx, c);
    }
    progress(`fields: ${Math.min(i + CHUNK, items.length)} of ${items.length}`);
  }
  if (s.created > 0) {
    await bumpSequence(trx, 'custom_fields');
    await bumpSequence(trx, 'field_contexts');
  }
};

async function importContext(
  trx: Knex,
  fieldId: number,
  ctx: { id?: number; name: string; description?: string; projectKeys?: string[]; issueTypeNames?: string[] },
  c: { created: number; skipped: number },
): Promise<void> {
  const projectIds: number[] = [];
  for (const key of ctx.projectKeys ?? []) {
    const p = await catalogRepository.findProjectByKey(trx, key);
    if (!p) throw badRequest(`Context ${ctx.name}: unknown project ${key}`, undefined, 'PROJECT_NOT_FOUND');
    projectIds.push(p.id);
  }
  const typeIds: number[] = [];
  for (const name of ctx.issueTypeNames ?? []) {
    const t = await catalogRepository.findIssueTypeByName(trx, name);
    if (!t) throw badRequest(`Context ${ctx.name}: unknown issue type ${name}`, undefined, 'ISSUE_TYPE_NOT_FOUND');
    typeIds.push(t.id);
  }
  const row = await fieldsRepository.insertContext(trx, { id: ctx.id, fieldId, name: ctx.name, description: ctx.description ?? '', isDefault: false });
  await fieldsRepository.setProjects(trx, fieldId, row.id, [...new Set(projectIds)]);
  await fieldsRepository.setIssueTypes(trx, row.id, [...new Set(typeIds)]);
  c.created++;
}

/** Field-editor grants; an existing grant is skipped. Users and groups must exist. */
export const importFieldGrants: SectionImporter = async (trx, doc, _ctx, progress, summary) => {
  const s = (summary.grants = { created: 0, skipped: 0 });
  for (const [i, g] of (doc.grants ?? []).entries()) {
    const where = `Grant ${i + 1}`;
    const field = (await (g.fieldId !== undefined
      ? trx('custom_fields').where({ id: g.fieldId }).first('id')
      : trx('custom_fields').where({ name_key: g.fieldName?.toLowerCase() }).orderBy('id').first('id'))) as { id: number } | undefined;
    if (!field) throw badRequest(`${where}: unknown field ${g.fieldId ?? g.fieldName}`, undefined, 'FIELD_NOT_FOUND');
    let contextId: number | null = null;
    if (g.context !== undefined) {
      const q = trx('field_contexts').where({ field_id: field.id });
      const row = (await (g.context === 'default' ? q.andWhere({ is_default: true }) : typeof g.context === 'number' ? q.andWhere({ id: g.context }) : q.andWhere({ name: g.context })).first('id')) as
        | { id: number }
        | undefined;
      if (!row) throw badRequest(`${where}: unknown context ${g.context}`, undefined, 'CONTEXT_NOT_FOUND');
      contextId = row.id;
    }
    const principal = g.user !== undefined ? { type: 'user' as const, name: g.user } : { type: 'group' as const, name: g.group ?? '' };
    const table = principal.type === 'user' ? 'users' : 'groups';
    if (!(await trx(table).where({ name_key: principal.name.toLowerCase() }).first('id'))) {
      throw badRequest(`${where}: unknown ${principal.type} ${principal.name}`, undefined, 'PRINCIPAL_NOT_FOUND');
    }
    const existing = await trx('field_grants')
      .where({ field_id: field.id, principal_type: principal.type, principal_key: principal.name.toLowerCase() })
      .andWhere((w) => (contextId === null ? w.whereNull('context_id') : w.where({ context_id: contextId })))
      .first('id');
    if (existing) s.skipped++;
    else {
      await grantsRepository.add(trx, field.id, contextId, [principal]);
      s.created++;
    }
    if ((i + 1) % 100 === 0) progress(`grants: ${i + 1}`);
  }
};
