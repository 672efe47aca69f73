import { z } from 'zod';
import { lenientId, MAX_INT_ID, numericPathId } from '../platform/http/id.schemas.ts';
import { WEBHOOK_EVENTS } from './webhook-events.ts';

/** A custom field id in a filter: `10000`, `"10000"` or `"customfield_10000"` (the tracker's own spelling). */
const customFieldId = z.union(
  [lenientId, z.string().trim().regex(/^customfield_\d{1,10}$/).transform((s) => Number(s.slice('customfield_'.length))).pipe(z.number().int().positive().max(MAX_INT_ID))],
  { error: 'customFieldId must be a field id (10000 or customfield_10000).' },
);

const events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `Each event must be one of ${WEBHOOK_EVENTS.join(', ')}.` }), { error: 'events must be a list of event names.' })
  .min(1, 'events must name at least one event.')
  .transform((list) => [...new Set(list)]);

/** The body of POST and PUT (PUT replaces everything but the secret, which an absent `secret` keeps). */
export const webhookBody = z.object({
  name: z.string({ error: 'The name is required.' }).trim().min(1, 'The name is required.').max(255, 'The name must be at most 255 characters.'),
  url: z.string({ error: 'The url is required.' }).trim().min(1, 'The url is required.').max(2048, 'The url must be at most 2048 characters.'),
  events,
  filters: z
    .object({ customFieldId: customFieldId.nullable().optional(), contextId: lenientId.nullable().optional() }, { error: 'filters must be an object.' })
    .strict()
    .optional(),
  /** Absent: unchanged (PUT) or none (POST); null or empty: none. */
  secret: z.string({ error: 'The secret must be a string.' }).max(255, 'The secret must be at most 255 characters.').nullable().optional(),
  enabled: z.boolean({ error: 'enabled must be true or false.' }).default(true),
});

export type WebhookBody = z.output<typeof webhookBody>;

export const webhookParams = z.object({ id: numericPathId });
export const deliveryParams = z.object({ id: numericPathId, deliveryId: numericPathId });

const pageValue = (label: string, def: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return def;
      if (!/^\d{1,10}$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a non-negative whole number.` });
        return z.NEVER;
      }
      return Math.min(Number(v), max);
    });

/** The deliveries' page (the host's lists: `startAt`, `maxResults`). */
export const deliveriesQuery = z.object({
  startAt: pageValue('startAt', 0, 1_000_000_000),
  maxResults: pageValue('maxResults', 50, 1000),
});

/** A subscription as GET answers it: the secret is never shown, `hasSecret` says whether one is set. */
export const webhookJson = z.object({
  id: z.number(),
  self: z.string(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  filters: z.object({ customFieldId: z.number().nullable(), contextId: z.number().nullable() }),
  hasSecret: z.boolean(),
  enabled: z.boolean(),
  status: z.enum(['ok', 'failing']),
  createdBy: z.string(),
  created: z.string(),
  updated: z.string(),
});

export const deliveryJson = z.object({
  id: z.number(),
  identifier: z.string(),
  webhookEvent: z.string(),
  eventLogId: z.number().nullable(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  created: z.string(),
  lastAttempt: z.string().nullable(),
  nextAttempt: z.string().nullable(),
  delivered: z.string().nullable(),
  responseStatus: z.number().nullable(),
  durationMs: z.number().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
});

export const deliveriesPage = z.object({
  startAt: z.number(),
  maxResults: z.number(),
  total: z.number(),
  isLast: z.boolean(),
  values: z.array(deliveryJson),
});

/** `GET /rest/webhooks/1.0/allowlist?url=`: the url to check is optional and bounded as a subscription's. */
export const allowlistQuery = z.object({
  url: z.string().max(2048, 'The url must be at most 2048 characters.').optional(),
});
export const allowlistAnswer = z.object({
  allowlist: z.array(z.string()),
  url: z.object({ allowed: z.boolean(), reason: z.string().optional() }).optional(),
});
