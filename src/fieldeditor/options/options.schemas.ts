import { z } from 'zod';
import { MAX_INT_ID } from '../../platform/http/id.schemas.ts';
import { bodyObject, lenientBoolean } from '../shared/fieldeditor.schemas.ts';
import { canonicalLocale } from './sort.ts';

/**
 * Request bodies of the option, move and sort endpoints. Clients of the original
 * (a Java/Jackson service) send string booleans ("true"), numbers as strings and partial bodies, so the
 * schemas coerce those; unknown properties are dropped (z.object strips them); a wrong type is a 400 that
 * names the property.
 */

const OPTION_VALUE_MESSAGE = 'must be a text of 1 to 255 characters (blanks at either end are removed)';

/** An option value: a string (a number is taken as its decimal text, as Jackson would), trimmed, 1..255 chars. */
export const optionValue = z
  .union([z.string(), z.number().finite().transform(String)], { error: OPTION_VALUE_MESSAGE })
  .transform((s) => s.trim())
  .pipe(z.string().min(1, { error: OPTION_VALUE_MESSAGE }).max(255, { error: OPTION_VALUE_MESSAGE }));

/** POST option: `optionvalue` required, `disabled` optional; `id` and `sequence` are ignored on create. */
export const createOptionBody = z.object(
  {
    optionvalue: z.custom<unknown>((v) => v !== undefined && v !== null, { error: 'is required' }).pipe(optionValue),
    disabled: lenientBoolean.optional().nullable(),
  },
  bodyObject,
);

/** PUT option: any subset; a missing (or null) member leaves that property unchanged. `sequence` is ignored (use move). */
export const updateOptionBody = z.object(
  {
    optionvalue: optionValue.optional().nullable(),
    disabled: lenientBoolean.optional().nullable(),
  },
  bodyObject,
);

/** Move: `position: "First"` wins over `after` (an option id, or a path/URL whose last segment is the id). */
export const moveBody = z
  .object(
    {
      after: z.union([z.string(), z.number().int()], { error: 'must be an option id or a path ending with one' }).optional().nullable(),
      position: z.string({ error: 'must be a string; the only supported value is First' }).optional().nullable(),
    },
    bodyObject,
  )
  .transform((b, ctx): { first: true } | { afterId: number } => {
    if (b.position !== undefined && b.position !== null) {
      if (b.position.trim().toLowerCase() === 'first') return { first: true };
      ctx.addIssue({ code: 'custom', path: ['position'], message: 'the only supported value is First' });
      return z.NEVER;
    }
    if (b.after === undefined || b.after === null) {
      ctx.addIssue({ code: 'custom', path: ['after'], message: 'send after (an option id) or position First' });
      return z.NEVER;
    }
    const id = afterId(b.after);
    if (id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['after'], message: 'must be an option id or a path whose last segment is the id' });
      return z.NEVER;
    }
    return { afterId: id };
  });

/** `10020`, `"10020"`, `"/rest/…/options/10020"`, `"10/20/30"`, `"…/10020?x=1"` → the last path segment as an id. */
export function afterId(raw: string | number): number | undefined {
  const text = String(raw).trim().replace(/[?#].*$/, '');
  const last = text.split('/').filter((s) => s.length > 0).pop();
  if (!last || !/^\d{1,10}$/.test(last)) return undefined;
  const id = Number(last);
  return id > 0 && id <= MAX_INT_ID ? id : undefined;
}

const upper = (values: readonly [string, ...string[]], message: string) =>
  z.string({ error: message }).trim().toUpperCase().pipe(z.enum(values, { error: message }));

/** Sort: `locale` (a BCP 47 tag) required; `strength` default TERTIARY; `order` default ASCENDING. */
export const sortBody = z.object(
  {
    locale: z
      .string({ error: 'is required: a language tag such as de-DE' })
      .trim()
      .transform((tag, ctx) => {
        const canonical = tag.length > 0 && tag.length <= 64 ? canonicalLocale(tag) : undefined;
        if (!canonical) {
          ctx.addIssue({ code: 'custom', message: 'must be a language tag such as de-DE or en-US' });
          return z.NEVER;
        }
        return canonical;
      }),
    strength: upper(['PRIMARY', 'SECONDARY', 'TERTIARY', 'IDENTICAL'], 'must be one of PRIMARY, SECONDARY, TERTIARY, IDENTICAL')
      .nullish()
      .transform((s) => (s ?? 'TERTIARY') as 'PRIMARY' | 'SECONDARY' | 'TERTIARY' | 'IDENTICAL'),
    order: upper(['ASCENDING', 'DESCENDING'], 'must be ASCENDING or DESCENDING')
      .nullish()
      .transform((s) => (s ?? 'ASCENDING') as 'ASCENDING' | 'DESCENDING'),
  },
  bodyObject,
);
