// OpenAPI declarations of the tracker host routes (/rest/api/2); see docs/openapi.md.
import { z } from 'zod';
import { json, type OperationDoc } from '../platform/openapi/operation.ts';
import * as s from './tracker.schemas.ts';

const TAG = 'Tracker: projects, issue types, fields';

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

export const trackerOperations: OperationDoc[] = [
  { method: 'get', path: '/rest/api/2/project', tag: TAG, access: 'user', summary: 'All projects, by key', responses: { 200: json(z.array(project), 'The projects') } },
  { method: 'get', path: '/rest/api/2/issuetype', tag: TAG, access: 'user', summary: 'All issue types, by id', responses: { 200: json(z.array(issueType), 'The issue types') } },
  { method: 'get', path: '/rest/api/2/field', tag: TAG, access: 'user', summary: 'All custom fields, by id', responses: { 200: json(z.array(field), 'The custom fields') } },
  {
    method: 'post', path: '/rest/api/2/project', tag: TAG, access: 'admin', summary: 'Create a project', body: s.createProjectBody,
    responses: { 201: json(z.object({ self: z.string(), id: z.number().int(), key: z.string() }), 'The new project') }, errors: [400],
  },
  { method: 'post', path: '/rest/api/2/issuetype', tag: TAG, access: 'admin', summary: 'Create an issue type', body: s.createIssueTypeBody, responses: { 201: json(issueType, 'The new issue type') }, errors: [400] },
  {
    method: 'post', path: '/rest/api/2/field', tag: TAG, access: 'admin', summary: 'Create a custom field (with its default global context)', body: s.createFieldBody,
    responses: { 201: json(field, 'The new field') }, errors: [400],
  },
];
