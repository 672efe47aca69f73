import { Router } from 'express';
import { requireAdmin, requireUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { IssueTypeRow, ProjectRow } from './catalog.repository.ts';
import type { FieldRow } from './fields.repository.ts';
import { schemaType } from './field-types.ts';
import type { TrackerService } from './tracker.service.ts';
import * as s from './tracker.schemas.ts';

const presentProject = (p: ProjectRow) => ({ id: String(p.id), key: p.key, name: p.name, description: p.description, projectTypeKey: p.project_type_key });
const presentIssueType = (baseUrl: string, t: IssueTypeRow) => ({
  self: `${baseUrl}/rest/api/2/issuetype/${t.id}`,
  id: String(t.id),
  name: t.name,
  description: t.description,
  subtask: t.subtask,
});
const presentField = (f: FieldRow) => ({
  id: `customfield_${f.id}`,
  key: `customfield_${f.id}`,
  name: f.name,
  description: f.description,
  custom: true,
  orderable: true,
  navigable: true,
  searchable: true,
  clauseNames: [`cf[${f.id}]`, f.name],
  schema: { type: schemaType(f.type_key), custom: f.type_key, customId: f.id },
});

/** Host REST of the tracker under /rest/api/2: projects, issue types, custom fields (Jira shapes). */
export function createTrackerRouter({ tracker, baseUrl }: { tracker: TrackerService; baseUrl: string }): Router {
  const r = Router();

  r.get('/project', requireUser, async (_req, res) => {
    res.json((await tracker.listProjects()).map(presentProject));
  });
  r.get('/issuetype', requireUser, async (_req, res) => {
    res.json((await tracker.listIssueTypes()).map((t) => presentIssueType(baseUrl, t)));
  });
  r.get('/field', requireUser, async (_req, res) => {
    res.json((await tracker.listFields()).map(presentField));
  });

  // ---- administrators only below this line ----
  r.post('/project', requireAdmin, async (req, res) => {
    const body = parseWith(s.createProjectBody, req.body, 'body');
    const p = await tracker.createProject(body);
    res.status(201).json({ self: `${baseUrl}/rest/api/2/project/${p.id}`, id: p.id, key: p.key });
  });
  r.post('/issuetype', requireAdmin, async (req, res) => {
    const body = parseWith(s.createIssueTypeBody, req.body, 'body');
    res.status(201).json(presentIssueType(baseUrl, await tracker.createIssueType(body)));
  });
  r.post('/field', requireAdmin, async (req, res) => {
    const body = parseWith(s.createFieldBody, req.body, 'body');
    const { field } = await tracker.createField(body);
    res.status(201).json(presentField(field));
  });
  return r;
}
