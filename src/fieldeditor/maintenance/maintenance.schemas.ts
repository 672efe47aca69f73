import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/fieldeditor.schemas.ts';
import { JOB_SORT_COLUMNS, type JobSortKey } from '../../platform/jobs/jobs.repository.ts';
import { OPERATION_NAMES } from './jobs/job-names.ts';

const single = (name: string) => z.string({ error: `${name} must be given once, as a single value.` });

const nonNegative = (name: string) =>
  single(name)
    .regex(/^\+?\d+$/, `${name} must be a non-negative integer.`)
    .transform((v) => Math.min(Number(v.replace(/^\+/, '')), Number.MAX_SAFE_INTEGER));

const paging = {
  startAt: nonNegative('startAt').optional(),
  maxResults: nonNegative('maxResults').optional(),
};

const SORT_KEYS = Object.keys(JOB_SORT_COLUMNS) as JobSortKey[];
const ORDER_VALUES = SORT_KEYS.flatMap((k) => [k, `+${k}`, `-${k}`]);

/** M1: `orderBy` is a sort key with an optional `+`/`-` (a `+` sent unencoded arrives as a space). */
export const jobsQuery = z
  .object({
    ...paging,
    orderBy: single('orderBy')
      .transform((v) => (v.startsWith(' ') ? `+${v.slice(1)}` : v))
      .refine((v) => ORDER_VALUES.includes(v), `orderBy must be one of ${ORDER_VALUES.join(', ')}.`)
      .optional(),
    filter: single('filter').max(255, 'filter must be at most 255 characters.').optional(),
  })
  .transform((q) => {
    const order = q.orderBy ?? '+name';
    return {
      startAt: q.startAt ?? 0,
      maxResults: Math.min(q.maxResults ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
      sort: order.replace(/^[+-]/, '') as JobSortKey,
      descending: order.startsWith('-'),
      filter: q.filter ?? '',
    };
  });

/** M2 body: the name of a job to schedule or an action to run. */
export const operationBody = z.strictObject(
  {
    name: z.string({ error: `name must be one of ${OPERATION_NAMES.join(', ')}.` }).refine((n) => OPERATION_NAMES.includes(n), {
      message: `name must be one of ${OPERATION_NAMES.join(', ')}.`,
    }),
  },
  { error: 'The body must be an object {"name": …}.' },
);

/** ISO 8601 date-time with an offset; `+0000` (the job entry's form) is accepted as well as `+00:00` and `Z`. */
const instant = (name: string) =>
  single(name)
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/, `${name} must be a date-time like 2026-11-23T10:00:00+0000.`)
    .transform((v) => new Date(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')))
    .refine((d) => !Number.isNaN(d.getTime()), `${name} is not a valid date-time.`);

const KIND = /^[a-z_]+(\.[a-z_]+)*(\.\*)?$/;

/** The event-log list: paging, a time range [from, to), kinds (comma-separated, `option.*` for a family), actor, field. */
export const eventsQuery = z
  .object({
    ...paging,
    from: instant('from').optional(),
    to: instant('to').optional(),
    kind: single('kind')
      .max(1000)
      .transform((v) => v.split(',').map((k) => k.trim()).filter(Boolean))
      .refine((ks) => ks.every((k) => KIND.test(k)), 'kind must be a comma-separated list of kinds such as option.created or option.*.')
      .optional(),
    actor: single('actor').min(1).max(255).optional(),
    fieldId: single('fieldId')
      .regex(/^(customfield_)?\d{1,9}$/, 'fieldId must be a custom field id.')
      .transform((v) => Number(v.replace('customfield_', '')))
      .optional(),
  })
  .transform((q) => ({
    startAt: q.startAt ?? 0,
    maxResults: Math.min(q.maxResults ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    filter: { from: q.from, to: q.to, kinds: q.kind, actor: q.actor, fieldId: q.fieldId },
  }));

/** M3 body: the whole schedule. */
export const truncateScheduleBody = z.strictObject(
  {
    enabled: z.boolean({ error: 'enabled must be true or false.' }),
    olderThanDays: z
      .number({ error: 'olderThanDays must be a whole number of days.' })
      .int('olderThanDays must be a whole number of days.')
      .min(1, 'olderThanDays must be at least 1.')
      .max(36_500, 'olderThanDays must be at most 36500.'),
  },
  { error: 'The body must be an object {"enabled": …, "olderThanDays": …}.' },
);
