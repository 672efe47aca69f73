// Host REST of the tracker under /rest/api/2: projects, issue types, custom fields (Jira shapes), each
// endpoint declared once (docs/openapi.md). Reads are for any user, creation for administrators.
import { z } from 'zod';
import { parseWith } from '../platform/http/validate.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { json } from '../platform/openapi/operation.ts';
import type { IssueTypeRow, ProjectRow } from './catalog.repository.ts';
import type { FieldRow } from './fields.repository.ts';
import { schemaType } from './field-types.ts';
import type { TrackerService } from './tracker.service.ts';
import * as s from './tracker.schemas.ts';

export interface TrackerDeps {
  tracker: TrackerService;
  baseUrl: string;
}

const TAG = 'Tracker: projects, issue types, fields';

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

const project = z.object({ id: z.string(), key: z.string(), name: z.string(), description: z.string(), projectTypeKey: z.string() }).meta({ title: 'Project' });
const issueType = z.object({ self: z.string(), id: z.string(), name: z.string(), description: z.string(), subtask: z.boolean() }).meta({ title: 'IssueType' });
const field = z
  .object({
    id: z.string().describe('customfield_<n>'),
    key: z.string(),
    name: z.string(),
    description: z.string(),
    custom: z.literal(true),
    orderable: z.boolean(),
    navigable: z.boolean(),
    searchable: z.boolean(),
    clauseNames: z.array(z.string()),
    schema: z.object({ type: z.string(), custom: z.string(), customId: z.number().int() }),
  })
  .meta({ title: 'Field' });

export const trackerEndpoints: Endpoint<TrackerDeps>[] = [
  {
    method: 'get', path: '/rest/api/2/project', tag: TAG, access: 'user', summary: 'All projects, by key', responses: { 200: json(z.array(project), 'The projects') },
    handle: async (_req, res, { tracker }) => {
      res.json((await tracker.listProjects()).map(presentProject));
    },
  },
  {
    method: 'get', path: '/rest/api/2/issuetype', tag: TAG, access: 'user', summary: 'All issue types, by id', responses: { 200: json(z.array(issueType), 'The issue types') },
    handle: async (_req, res, { tracker, baseUrl }) => {
      res.json((await tracker.listIssueTypes()).map((t) => presentIssueType(baseUrl, t)));
    },
  },
  {
    method: 'get', path: '/rest/api/2/field', tag: TAG, access: 'user', summary: 'All custom fields, by id', responses: { 200: json(z.array(field), 'The custom fields') },
    handle: async (_req, res, { tracker }) => {
      res.json((await tracker.listFields()).map(presentField));
    },
  },
  {
    method: 'post', path: '/rest/api/2/project', tag: TAG, access: 'admin', summary: 'Create a project', body: s.createProjectBody,
    responses: { 201: json(z.object({ self: z.string(), id: z.number().int(), key: z.string() }), 'The new project') }, errors: [400],
    handle: async (req, res, { tracker, baseUrl }) => {
      const body = parseWith(s.createProjectBody, req.body, 'body');
      const p = await tracker.createProject(body);
      res.status(201).json({ self: `${baseUrl}/rest/api/2/project/${p.id}`, id: p.id, key: p.key });
    },
  },
  {
    method: 'post', path: '/rest/api/2/issuetype', tag: TAG, access: 'admin', summary: 'Create an issue type', body: s.createIssueTypeBody,
    responses: { 201: json(issueType, 'The new issue type') }, errors: [400],
    handle: async (req, res, { tracker, baseUrl }) => {
      const body = parseWith(s.createIssueTypeBody, req.body, 'body');
      res.status(201).json(presentIssueType(baseUrl, await tracker.createIssueType(body)));
    },
  },
  {
    method: 'post', path: '/rest/api/2/field', tag: TAG, access: 'admin', summary: 'Create a custom field (with its default global context)', body: s.createFieldBody,
    responses: { 201: json(field, 'The new field') }, errors: [400],
    handle: async (req, res, { tracker }) => {
      const body = parseWith(s.createFieldBody, req.body, 'body');
      const { field } = await tracker.createField(body);
      res.status(201).json(presentField(field));
    },
  },
];
