import { z } from 'zod';

/**
 * Code points that the stores and formats of this server cannot hold: U+0000 (PostgreSQL text refuses it),
 * the other C0 controls except tab, LF and CR, U+FFFE / U+FFFF (not characters of XML 1.0, so a value
 * holding one could never be listed as XML), and lone surrogates (no UTF-8 form; the driver would store U+FFFD).
 */
const NOT_STORABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first code point of `text` that cannot be stored and listed, or undefined when every one can. */
export function firstUnstorable(text: string): string | undefined {
  return NOT_STORABLE.exec(text)?.[0];
}

/** `U+0000`, as messages name a code point. */
export const codePointName = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

export const unstorableMessage = (ch: string) =>
  `contains ${codePointName(ch)}, a character that cannot be stored (U+0000, control characters other than tab, LF and CR, U+FFFE, U+FFFF and lone surrogates are refused).`;

/**
 * zod refinement for text that is stored and later written into XML (titles, names): refuses the code points
 * above with the same message the input boundary uses. The boundary already refuses them in every request;
 * this schema guards values that reach the store by other ways (imports, parsed storage bodies).
 */
export const storableText = <S extends z.ZodType<string>>(schema: S) =>
  schema.superRefine((v, ctx) => {
    const bad = firstUnstorable(v);
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: unstorableMessage(bad) });
  });

/**
 * A name without any control character, tab and line breaks and DEL included (user, group, project and issue
 * type names: one line each, shown in lists and headers); stricter than what can be stored.
 */
// eslint-disable-next-line no-control-regex
export const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
