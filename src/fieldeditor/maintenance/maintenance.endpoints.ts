// M1–M3 and the event-log list, administrators only, each declared once (docs/openapi.md, docs/maintenance.md).
// Like every endpoint added after the 1.2 generation they answer 412 under the `1.2` base paths (after 401/403).
import { z } from 'zod';
import { currentUser } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { json } from '../../platform/openapi/operation.ts';
import { SINCE_1 } from '../shared/fieldeditor.errors.ts';
import type { MaintenanceService } from './maintenance.service.ts';
import * as s from './maintenance.schemas.ts';

export interface MaintenanceDeps {
  maintenance: MaintenanceService;
}

const TAG = 'Admin: maintenance';
const time = z.string().nullable().describe("UTC, `YYYY-MM-dd'T'HH:mm:ss+0000`, or null");
const job = z
  .object({
    name: z.string(),
    status: z.enum(['SCHEDULED', 'RUNNING', 'SUCCESS', 'FAILED']),
    scheduledTime: time,
    finishedTime: time,
    startedTime: time,
    node: z.string().nullable(),
    message: z.string().nullable(),
    runs: z.number().int(),
  })
  .meta({ title: 'Job' });
const entry = z
  .object({
    id: z.number().int(),
    time,
    actor: z.string().describe('A user name, or `system`'),
    kind: z.string().describe('See docs/maintenance.md for the kinds'),
    fieldId: z.number().int().nullable(),
    contextId: z.number().int().nullable(),
    target: z.unknown(),
    before: z.unknown(),
    after: z.unknown(),
    operationId: z.uuid().optional().describe('Shared by the entries of one batch or sync (issue 27); absent on a single change'),
  })
  .meta({ title: 'EventLogEntry' });
const page = <T extends z.ZodType>(values: T, title: string) =>
  z.object({ maxResults: z.number().int(), startAt: z.number().int(), total: z.number().int(), processingTimeInMs: z.number().int(), values: z.array(values) }).meta({ title });
const schedule = z.object({ enabled: z.boolean(), olderThanDays: z.number().int() }).meta({ title: 'TruncateSchedule' });

export const maintenanceEndpoints: Endpoint<MaintenanceDeps>[] = [
  {
    method: 'get', path: '/maintenance/jobs', tag: TAG, access: 'admin', versions: SINCE_1, summary: 'M1: jobs, paged (startAt, maxResults, orderBy ±name, filter)',
    query: s.jobsQuery.in, responses: { 200: json(page(job, 'JobPage'), 'A page of jobs') }, errors: [400],
    handle: async (req, res, { maintenance }) => {
      res.json(await maintenance.listJobs(parseWith(s.jobsQuery, req.query, 'query')));
    },
  },
  {
    method: 'post', path: '/maintenance/operations', tag: TAG, access: 'admin', versions: SINCE_1, summary: 'M2: schedule a job or run an action by name',
    body: s.operationBody, responses: { 200: json(z.union([job, z.object({})]), 'The job entry, or {} for an action') }, errors: [400],
    handle: async (req, res, { maintenance }) => {
      const { name } = parseWith(s.operationBody, req.body ?? null, 'body');
      res.json(await maintenance.operate(name, currentUser(req).name));
    },
  },
  {
    method: 'get', path: '/maintenance/event_log_entries', tag: TAG, access: 'admin', versions: SINCE_1, summary: 'The event log, newest first, filtered and paged',
    query: s.eventsQuery.in, responses: { 200: json(page(entry, 'EventLogPage'), 'A page of entries') }, errors: [400],
    handle: async (req, res, { maintenance }) => {
      res.type('application/json').send(await maintenance.listEvents(parseWith(s.eventsQuery, req.query, 'query')));
    },
  },
  {
    method: 'get', path: '/maintenance/event_log_entries/truncate_schedule', tag: TAG, access: 'admin', versions: SINCE_1, summary: "M3: the event log's truncation schedule",
    responses: { 200: json(schedule, 'The schedule') },
    handle: async (_req, res, { maintenance }) => {
      res.json(await maintenance.truncateSchedule());
    },
  },
  {
    method: 'put', path: '/maintenance/event_log_entries/truncate_schedule', tag: TAG, access: 'admin', versions: SINCE_1, summary: "M3: set the event log's truncation schedule",
    body: s.truncateScheduleBody, responses: { 200: json(schedule, 'The schedule') }, errors: [400],
    handle: async (req, res, { maintenance }) => {
      res.json(await maintenance.setTruncateSchedule(parseWith(s.truncateScheduleBody, req.body ?? null, 'body'), currentUser(req).name));
    },
  },
];
