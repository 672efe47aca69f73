// Query of the content list (`/content_list/json`). As everywhere in this API, a bad parameter answers the
// documented 500 INVALID_URL_PARAMETER (not 400), naming the parameter; unknown parameters are ignored.
import { z } from 'zod';
import { invalidParameter } from './download.errors.ts';
import type { ContentListParams } from './content-list.service.ts';

/** The most content one request lists (the web interface asks for a page of 100). */
export const MAX_CONTENT_LIST_LIMIT = 100;

const one = (name: string) => z.string({ error: `${name} must be given once` });
const whole = (name: string, min: number, max: number) =>
  one(name)
    .regex(/^\d{1,9}$/, { error: `${name} must be a whole number` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `${name} must be from ${min} to ${max}` });

export const contentListQuery = z.object({
  spaceKey: one('spaceKey').regex(/^[A-Za-z0-9]{1,255}$/, { error: 'spaceKey must be 1-255 letters or digits' }),
  type: z.enum(['page', 'blogpost', 'comment'], { error: 'type must be page, blogpost or comment' }).default('page'),
  start: whole('start', 0, 1_000_000_000).default(0),
  limit: whole('limit', 1, MAX_CONTENT_LIST_LIMIT).default(25),
});

export function parseContentListQuery(query: unknown): ContentListParams {
  const result = contentListQuery.safeParse(query);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const name = first?.path.map(String).join('.') || 'query';
  const given = (query as Record<string, unknown>)[name];
  throw invalidParameter(given === undefined ? `${name} is required` : (first?.message ?? 'invalid'));
}
