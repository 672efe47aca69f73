import type { Knex } from 'knex';
import { importPart } from '../platform/import/import-part.ts';
import { importFields, importIssueTypes, importProjects } from './tracker-import.schema.ts';
import { TRACKER_TOPIC } from './tracker-write.ts';
import { catalogRepository, bumpSequence } from './catalog.repository.ts';
import { fieldsRepository } from './fields.repository.ts';
import { importUnknownIssueType, importUnknownProject } from '../directory/host-api.errors.ts';
import { trackerRules, defaultContextName, DEFAULT_CONTEXT_DESCRIPTION } from './tracker.service.ts';

const CHUNK = 500;

/** Projects (skipped when the key exists) and issue types (skipped when the name exists). */
export const trackerCatalogImport = importPart({ projects: importProjects, issueTypes: importIssueTypes }, [TRACKER_TOPIC], async (trx, doc, { summary }) => {
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
});

/**
 * Custom fields with their default context (and optional further contexts). A field is skipped when its
 * explicit id exists, or (without id) when a field of the same name and type exists, so a re-import is
 * harmless. Fields are inserted in batches of 500: seeding tens of thousands stays a few dozen statements.
 */
export const trackerFieldsImport = importPart({ fields: importFields }, [TRACKER_TOPIC], async (trx, doc, { progress, summary }) => {
  const s = (summary.fields = { created: 0, skipped: 0 });
  const c = (summary.contexts = { created: 0, skipped: 0 });
  const items = doc.fields ?? [];
  for (let i = 0; i < items.length; i += CHUNK) {
    const chunk = items.slice(i, i + CHUNK);
    const ids = chunk.flatMap((f) => (f.id === undefined ? [] : [f.id]));
    const takenIds = await fieldsRepository.existingIds(trx, ids);
    const named = await fieldsRepository.findByNameKeys(trx, chunk.map((f) => f.name.toLowerCase()));
    const byName = new Map(named.map((r) => [`${r.name_key}\u0000${r.type_key}`, r.id]));
    const fresh = chunk.filter((f) => (f.id !== undefined ? !takenIds.has(f.id) : !byName.has(`${f.name.toLowerCase()}\u0000${f.type}`)));
    s.skipped += chunk.length - fresh.length;
    if (fresh.length === 0) continue;
    const newIds = await fieldsRepository.insertFields(trx, fresh.map((f) => ({ id: f.id, name: f.name, description: f.description ?? '', typeKey: f.type })));
    await fieldsRepository.insertContexts(
      trx,
      fresh.map((f, k) => ({ id: f.defaultContextId, fieldId: newIds[k]!, name: defaultContextName(f.name), description: DEFAULT_CONTEXT_DESCRIPTION, isDefault: true })),
    );
    s.created += fresh.length;
    for (const [k, f] of fresh.entries()) {
      for (const ctx of f.contexts ?? []) await importContext(trx, newIds[k] ?? 0, ctx, c);
    }
    progress(`fields: ${Math.min(i + CHUNK, items.length)} of ${items.length}`);
  }
  if (s.created > 0) {
    await bumpSequence(trx, 'custom_fields');
    await bumpSequence(trx, 'field_contexts');
  }
});

async function importContext(
  trx: Knex,
  fieldId: number,
  ctx: { id?: number; name: string; description?: string; projectKeys?: string[]; issueTypeNames?: string[] },
  c: { created: number; skipped: number },
): Promise<void> {
  const projectIds: number[] = [];
  for (const key of ctx.projectKeys ?? []) {
    const p = await catalogRepository.findProjectByKey(trx, key);
    if (!p) throw importUnknownProject(ctx.name, key);
    projectIds.push(p.id);
  }
  const typeIds: number[] = [];
  for (const name of ctx.issueTypeNames ?? []) {
    const t = await catalogRepository.findIssueTypeByName(trx, name);
    if (!t) throw importUnknownIssueType(ctx.name, name);
    typeIds.push(t.id);
  }
  const row = await fieldsRepository.insertContext(trx, { id: ctx.id, fieldId, name: ctx.name, description: ctx.description ?? '', isDefault: false });
  await fieldsRepository.setProjects(trx, fieldId, row.id, [...new Set(projectIds)]);
  await fieldsRepository.setIssueTypes(trx, row.id, [...new Set(typeIds)]);
  c.created++;
}
