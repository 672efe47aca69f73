import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { trackerWrite } from './tracker-write.ts';
import { toContextRef, type ContextRef, type FieldRef } from './refs.ts';
import { catalogRepository, type IssueTypeRow, type ProjectRow } from './catalog.repository.ts';
import { fieldsRepository } from './fields.repository.ts';
import {
  contextCoversAllProjects,
  contextNotFound,
  defaultContextUndeletable,
  projectInOtherContext,
  unknownContextIssueType,
  unknownContextProject,
} from '../directory/host-api.errors.ts';
import type { CreateContextInput, UpdateContextInput } from './tracker.schemas.ts';

/** A context with its scope; `projects` / `issueTypes` only when asked for (they cost a query each). */
export interface ContextDetails extends ContextRef {
  allProjects: boolean;
  allIssueTypes: boolean;
  projects?: ProjectRow[];
  issueTypes?: IssueTypeRow[];
}

export interface ContextExpand {
  projects?: boolean;
  issueTypes?: boolean;
}

/**
 * Scope of many contexts at once: two link queries for all of them (plus one per expansion), never one
 * query per context, so a page of fields costs the same few round trips whatever its size.
 */
export async function describeContexts(q: Knex, contexts: readonly ContextRef[], expand: ContextExpand = {}): Promise<ContextDetails[]> {
  const ids = contexts.map((c) => c.id);
  const [pLinks, tLinks] = await Promise.all([fieldsRepository.projectLinks(q, ids), fieldsRepository.issueTypeLinks(q, ids)]);
  const projects = expand.projects ? new Map((await catalogRepository.projectsByIds(q, [...new Set(pLinks.map((l) => l.project_id))])).map((p) => [p.id, p])) : undefined;
  const types = expand.issueTypes ? new Map((await catalogRepository.issueTypesByIds(q, [...new Set(tLinks.map((l) => l.issue_type_id))])).map((t) => [t.id, t])) : undefined;
  return contexts.map((c) => {
    const myProjects = pLinks.filter((l) => l.context_id === c.id);
    const myTypes = tLinks.filter((l) => l.context_id === c.id);
    return {
      ...c,
      allProjects: myProjects.length === 0,
      allIssueTypes: myTypes.length === 0,
      ...(projects ? { projects: myProjects.map((l) => projects.get(l.project_id)).filter((p): p is ProjectRow => p !== undefined) } : {}),
      ...(types ? { issueTypes: myTypes.map((l) => types.get(l.issue_type_id)).filter((t): t is IssueTypeRow => t !== undefined) } : {}),
    };
  });
}

/** All contexts of a field: default first, then by id. */
export async function contextsOfField(q: Knex, fieldId: number): Promise<ContextRef[]> {
  return (await fieldsRepository.contextsOfFields(q, [fieldId])).map(toContextRef);
}

async function checkScope(trx: Knex, field: FieldRef, contextId: number | null, projectIds: number[] | undefined, issueTypeIds: number[] | undefined) {
  if (projectIds !== undefined) {
    const unique = [...new Set(projectIds)];
    const found = new Set((await catalogRepository.projectsByIds(trx, unique)).map((p) => p.id));
    const missing = unique.find((id) => !found.has(id));
    if (missing !== undefined) throw unknownContextProject(missing);
    const taken = await fieldsRepository.projectsTakenElsewhere(trx, field.id, contextId, unique);
    if (taken[0]) {
      throw projectInOtherContext(taken[0].project_id, taken[0].context_id);
    }
    if (unique.length === 0) {
      // Only one context of a field may apply to all projects, or "which context applies" would be ambiguous.
      const other = await fieldsRepository.otherAllProjectsContext(trx, field.id, contextId);
      if (other) throw contextCoversAllProjects(other.id, other.name);
    }
  }
  if (issueTypeIds !== undefined) {
    const unique = [...new Set(issueTypeIds)];
    const found = new Set((await catalogRepository.issueTypesByIds(trx, unique)).map((t) => t.id));
    const missing = unique.find((id) => !found.has(id));
    if (missing !== undefined) throw unknownContextIssueType(missing);
  }
}

/** A6: creates a context; empty or missing lists mean all projects / all issue types. */
/**
 * Work a caller must commit with a context change (the field editor's event log), run inside its
 * transaction with the context as it was and as it is.
 */
export type ContextChangeHook = (trx: Knex.Transaction, change: { before: ContextDetails | null; after: ContextDetails | null }) => Promise<void>;

export async function createContext(knex: Knex, changes: ChangeFeed, field: FieldRef, input: CreateContextInput, also?: ContextChangeHook): Promise<ContextDetails> {
  return trackerWrite(knex, changes, async (trx) => {
    await fieldsRepository.lockField(trx, field.id);
    const projectIds = input.projectIds ?? [];
    const issueTypeIds = input.issueTypeIds ?? [];
    await checkScope(trx, field, null, projectIds, issueTypeIds);
    const row = await fieldsRepository.insertContext(trx, { fieldId: field.id, name: input.name, description: input.description ?? '', isDefault: false });
    await fieldsRepository.setProjects(trx, field.id, row.id, [...new Set(projectIds)]);
    await fieldsRepository.setIssueTypes(trx, row.id, [...new Set(issueTypeIds)]);
    const [details] = await describeContexts(trx, [toContextRef(row)], { projects: true, issueTypes: true });
    await also?.(trx, { before: null, after: details as ContextDetails });
    return details as ContextDetails;
  });
}

/** A7: updates name/description and, when sent, replaces the project or issue-type list. */
export async function updateContext(
  knex: Knex,
  changes: ChangeFeed,
  field: FieldRef,
  context: ContextRef,
  input: UpdateContextInput,
  also?: ContextChangeHook,
): Promise<ContextDetails> {
  return trackerWrite(knex, changes, async (trx) => {
    await fieldsRepository.lockField(trx, field.id);
    const [before] = also ? await describeContexts(trx, [context], { projects: true, issueTypes: true }) : [];
    await checkScope(trx, field, context.id, input.projectIds, input.issueTypeIds);
    await fieldsRepository.updateContext(trx, context.id, { name: input.name, description: input.description });
    if (input.projectIds !== undefined) await fieldsRepository.setProjects(trx, field.id, context.id, [...new Set(input.projectIds)]);
    if (input.issueTypeIds !== undefined) await fieldsRepository.setIssueTypes(trx, context.id, [...new Set(input.issueTypeIds)]);
    const [row] = await fieldsRepository.contextsByIds(trx, [context.id]);
    if (!row) throw contextNotFound();
    const [details] = await describeContexts(trx, [toContextRef(row)], { projects: true, issueTypes: true });
    await also?.(trx, { before: before ?? null, after: details as ContextDetails });
    return details as ContextDetails;
  });
}

/** A8: deletes a context (its grants, options and defaults go with it by cascade); never the default one. */
export async function deleteContext(knex: Knex, changes: ChangeFeed, field: FieldRef, context: ContextRef, also?: ContextChangeHook): Promise<ContextDetails> {
  if (context.isDefault) throw defaultContextUndeletable(context.id);
  return trackerWrite(knex, changes, async (trx) => {
    await fieldsRepository.lockField(trx, field.id);
    const [details] = await describeContexts(trx, [context], { projects: true, issueTypes: true });
    if (!(await fieldsRepository.deleteContext(trx, context.id))) throw contextNotFound();
    await also?.(trx, { before: details as ContextDetails, after: null });
    return details as ContextDetails;
  });
}
