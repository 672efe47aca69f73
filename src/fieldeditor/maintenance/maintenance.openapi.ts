// OpenAPI declarations of the maintenance routes (M1–M3 and the event log); see docs/openapi.md and docs/maintenance.md.
import { z } from 'zod';
import { json, type OperationDoc } from '../../platform/openapi/operation.ts';
import { eventsQuery, jobsQuery, operationBody, truncateScheduleBody } from './maintenance.schemas.ts';

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
  })
  .meta({ title: 'EventLogEntry' });
const page = <T extends z.ZodType>(values: T, title: string) =>
  z.object({ maxResults: z.number().int(), startAt: z.number().int(), total: z.number().int(), processingTimeInMs: z.number().int(), values: z.array(values) }).meta({ title });
const schedule = z.object({ enabled: z.boolean(), olderThanDays: z.number().int() }).meta({ title: 'TruncateSchedule' });

export const maintenanceOperations: OperationDoc[] = [
  {
    method: 'get', path: '/maintenance/jobs', tag: TAG, access: 'admin', summary: 'M1: jobs, paged (startAt, maxResults, orderBy ±name, filter)',
    query: jobsQuery.in, responses: { 200: json(page(job, 'JobPage'), 'A page of jobs') }, errors: [400, 412],
  },
  {
    method: 'post', path: '/maintenance/operations', tag: TAG, access: 'admin', summary: 'M2: schedule a job or run an action by name',
    body: operationBody, responses: { 200: json(z.union([job, z.object({})]), 'The job entry, or {} for an action') }, errors: [400, 412],
  },
  {
    method: 'get', path: '/maintenance/event_log_entries', tag: TAG, access: 'admin', summary: 'The event log, newest first, filtered and paged',
    query: eventsQuery.in, responses: { 200: json(page(entry, 'EventLogPage'), 'A page of entries') }, errors: [400, 412],
  },
  {
    method: 'get', path: '/maintenance/event_log_entries/truncate_schedule', tag: TAG, access: 'admin', summary: "M3: the event log's truncation schedule",
    responses: { 200: json(schedule, 'The schedule') }, errors: [412],
  },
  {
    method: 'put', path: '/maintenance/event_log_entries/truncate_schedule', tag: TAG, access: 'admin', summary: "M3: set the event log's truncation schedule",
    body: truncateScheduleBody, responses: { 200: json(schedule, 'The schedule') }, errors: [400, 412],
  },
];
