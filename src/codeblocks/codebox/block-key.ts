// Block keys are Base64 of the UTF-8 section name. Scripts build them by hand (`base64`,
// copy-paste, unencoded query strings), so decoding is lenient about the spelling of the
// Base64 but strict about the result: it must be real Base64 and real UTF-8.

/** Longer keys cannot name a section of any storable page; refuse before decoding. */
export const MAX_BLOCK_KEY_LENGTH = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Standard Base64 (`+`, `/`, `=` padding) of the UTF-8 bytes of the name, e.g. `raw` → `cmF3`. */
export function encodeBlockKey(name: string): string {
  return Buffer.from(name, 'utf8').toString('base64');
}

/**
 * Decodes a block key to the section name, or undefined when it is not one.
 * Accepted: with or without `=` padding; URL-safe `-` and `_`; a space stands for `+`
 * (an unencoded `+` in a query string arrives as a space); tabs and line breaks are ignored.
 * Rejected: empty keys, characters outside Base64, misplaced or excess padding, an
 * impossible length, and bytes that are not valid UTF-8.
 */
export function decodeBlockKey(key: string): string | undefined {
  if (key.length === 0 || key.length > MAX_BLOCK_KEY_LENGTH) return undefined;
  const cleaned = key
    .replace(/[\t\r\n]/g, '')
    .replace(/ /g, '+')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const m = /^([A-Za-z0-9+/]*)(={0,2})$/.exec(cleaned);
  const data = m?.[1];
  const padding = m?.[2] ?? '';
  if (data === undefined || data.length === 0) return undefined;
  // A lone trailing sextet cannot encode a byte; padding, when present, must complete a quad.
  if (data.length % 4 === 1) return undefined;
  if (padding.length > 0 && (data.length + padding.length) % 4 !== 0) return undefined;
  try {
    return utf8.decode(Buffer.from(data, 'base64'));
  } catch {
    return undefined;
  }
}
