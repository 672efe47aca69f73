// Query parameters of E1-E3. The contract answers bad parameters with 500 (not 400), with the refined key
// 500_ERROR_INVALID_URL_PARAMETER_EXCEPTION, so failures here become that error instead of parseWith's 400.
// Unknown extra parameters are ignored, as the original servlet did.
import { z } from 'zod';
import { invalidParameter } from './download.errors.ts';
import { decodeBlockKey } from './codebox/block-key.ts';
import { BoundedCache } from '../platform/cache/bounded-cache.ts';
import { codePointName, firstUnstorable } from '../platform/http/storable-text.ts';
import { MAX_CONTENT_ID } from '../platform/http/id.schemas.ts';

// Express's simple query parser gives arrays for repeated names; a repeated parameter is ambiguous.
const one = (name: string) => z.string({ error: `${name} must be given once` });

const contentIdText = (name: string) =>
  one(name)
    .trim()
    // Content ids are 64-bit (issue 31); 16 digits reach past 2^53-1, where the range check takes over.
    .regex(/^\d{1,16}$/, { error: `${name} must be a positive whole number` })
    .transform(Number)
    .refine((n) => n > 0 && n <= MAX_CONTENT_ID, { error: `${name} is out of range` });

const macroId = one('macroId').min(1, { error: 'macroId is required' }).max(255, { error: 'macroId is too long' });

/** Query of E2 and E3 (also what the API description shows). */
export const listQuery = z.object({
  macroId,
  contentId: contentIdText('contentId').optional(),
  pageId: contentIdText('pageId').optional(),
});

/** Query of E1 and `/code`. */
export const downloadQuery = listQuery.extend({
  key: one('key').min(1, { error: 'key is required' }),
  asciiOnly: one('asciiOnly').optional(),
});

export interface ListParams {
  contentId: number;
  macroId: string;
}

export interface DownloadParams extends ListParams {
  /** The decoded section name (`raw` for the raw template). */
  section: string;
  asciiOnly: boolean;
}

function parse<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const name = first?.path.map(String).join('.') ?? 'query';
  // zod says "expected string" for both a missing and a repeated parameter; name the actual problem.
  const given = (query as Record<string, unknown>)[name];
  const message = given === undefined ? `${name} is required` : (first?.message ?? 'invalid');
  throw invalidParameter(message);
}

/** `pageId` is an alias of `contentId` in every generation; both given and different is an error. */
function contentIdOf(q: { contentId?: number | undefined; pageId?: number | undefined }): number {
  if (q.contentId !== undefined && q.pageId !== undefined && q.contentId !== q.pageId) {
    throw invalidParameter('contentId and pageId name different contents');
  }
  const id = q.contentId ?? q.pageId;
  if (id === undefined) throw invalidParameter('contentId (or pageId) is required');
  return id;
}

export function parseListQuery(query: unknown): ListParams {
  const q = parse(listQuery, query);
  return { contentId: contentIdOf(q), macroId: q.macroId };
}

// Fleets send the very same query strings again and again: their parsed form is kept (successes only).
const parsedDownloads = new BoundedCache<string, DownloadParams>({ name: 'codeblocks_parsed_urls', ttlMs: 10 * 60_000, maxEntries: 2_000 });

/** As parseDownloadQuery, remembered by the raw query string (`url` is the request URL). */
export function parseDownloadUrl(url: string, query: () => unknown): DownloadParams {
  const q = url.indexOf('?');
  const raw = q < 0 ? '' : url.slice(q + 1);
  return parsedDownloads.get(raw) ?? parsedDownloads.set(raw, parseDownloadQuery(query()));
}

/**
 * For the fast path: the parameters of a raw query string parsed before (by parseDownloadUrl, so it passed
 * the same checks), without counting the lookup; `confirm()` counts the hit, as parseDownloadUrl would have.
 */
export function peekParsedDownload(rawQuery: string): { params: DownloadParams; confirm(): void } | undefined {
  const params = parsedDownloads.peekLive(rawQuery);
  return params && { params, confirm: () => parsedDownloads.countHit() };
}

export function parseDownloadQuery(query: unknown): DownloadParams {
  const q = parse(downloadQuery, query);
  const section = decodeBlockKey(q.key);
  if (section === undefined) throw invalidParameter('key is not the Base64 of a UTF-8 section name');
  // The decoded name is looked up in the database: a U+0000 there is an error of PostgreSQL (a generic 500),
  // and no section can hold it or the other unstorable code points (saving refuses them), so it is a bad key.
  const unstorable = firstUnstorable(section);
  if (unstorable !== undefined) throw invalidParameter(`key decodes to a section name with ${codePointName(unstorable)}, which no section name can hold`);
  // Like Java's Boolean.parseBoolean, which the original used: only "true" (any case) switches it on.
  const asciiOnly = q.asciiOnly?.trim().toLowerCase() === 'true';
  return { contentId: contentIdOf(q), macroId: q.macroId, section, asciiOnly };
}
