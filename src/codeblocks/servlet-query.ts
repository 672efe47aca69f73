// The query string of an old servlet URL as its REST redirect's, rewritten textually so that every value
// keeps its exact bytes and encoding.
import type { Generation } from './generation.ts';

/** Servlet parameter names and their REST names; `pageid` depends on the generation. */
function renames(gen: Generation): Record<string, string> {
  return { pagepropertykey: 'key', macroid: 'macroId', pageid: gen.contentParam, asciionly: 'asciiOnly' };
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** Renames the servlet parameters, drops `os_authType` (Basic is always accepted), keeps everything else. */
export function rewriteServletQuery(query: string, gen: Generation): string {
  const map = renames(gen);
  const parts: string[] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rest = eq < 0 ? '' : part.slice(eq);
    const name = decodeName(rawName);
    if (name.toLowerCase() === 'os_authtype') continue;
    const renamed = map[name];
    parts.push(renamed === undefined ? part : `${renamed}${rest}`);
  }
  // Node reads the request line as latin1: a raw non-ASCII byte arrives as one char U+0080..U+00FF and goes
  // back out percent-encoded, so the Location header is always valid and names the same bytes.
  return parts.join('&').replace(/[^\x21-\x7e]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(c);
  });
}
