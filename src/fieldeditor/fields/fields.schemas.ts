import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/fieldeditor.schemas.ts';

const single = (name: string) => z.string({ error: `${name} must be given once, as a single value.` });

const nonNegative = (name: string) =>
  single(name)
    .regex(/^[+-]?\d+$/, `${name} must be an integer.`)
    .refine((v) => !v.startsWith('-') || /^-0+$/.test(v), `${name} must not be negative.`)
    // Beyond 2^53 the value cannot be represented exactly; every such offset is past the end anyway.
    .transform((v) => Math.min(Number(v.replace(/^[+-]/, '')), Number.MAX_SAFE_INTEGER));

/**
 * A1/U1 paging parameters. `+name` arrives as ` name` when the client did not percent-encode the plus
 * (a `+` in a query string means a space), so a leading space is read as `+`.
 */
export const pageQuery = z.object({
  startAt: nonNegative('startAt').optional(),
  maxResults: nonNegative('maxResults').optional(),
  orderBy: single('orderBy')
    .transform((v) => (v.startsWith(' ') ? `+${v.slice(1)}` : v))
    .pipe(z.enum(['fieldName', 'name', '+name', '-name'], { error: "orderBy must be one of 'fieldName', 'name', '+name', '-name'." }))
    .optional(),
  filter: single('filter').max(255, 'filter must be at most 255 characters.').optional(),
});

export const PAGE_PARAMS = ['startAt', 'maxResults', 'orderBy', 'filter'] as const;

export interface PageRequest {
  startAt: number;
  maxResults: number;
  descending: boolean;
  filter: string;
}

export function toPageRequest(q: z.output<typeof pageQuery>): PageRequest {
  return {
    startAt: q.startAt ?? 0,
    maxResults: Math.min(q.maxResults ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    descending: q.orderBy === '-name',
    filter: q.filter ?? '',
  };
}

/** True when the query carries any of the paging parameters (even empty): then the page wrapper answers. */
export const wantsPage = (query: object): boolean => PAGE_PARAMS.some((p) => Object.prototype.hasOwnProperty.call(query, p));
