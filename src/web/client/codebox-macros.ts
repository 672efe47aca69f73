/** The code-box macros of a page's storage format, in document order (only what the lists need). */
export interface MacroRef {
  macroId: string;
  kind: string;
}

const KINDS = new Set(['advanced-codeblock-macro', 'advanced-single-codeblock-macro', 'advanced-remote-codeblock-macro']);

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[2] ?? m[3]) : undefined;
}

/**
 * Finds the start tags of `ac:structured-macro` elements. The server writes a macro id into every macro
 * when the page is saved, so every code box found here can be addressed by E1-E3.
 */
export function codeboxMacros(storage: string): MacroRef[] {
  const found: MacroRef[] = [];
  for (const m of storage.matchAll(/<ac:structured-macro\b[^>]*>/g)) {
    const kind = attribute(m[0], 'ac:name');
    const macroId = attribute(m[0], 'ac:macro-id');
    if (kind && macroId && KINDS.has(kind)) found.push({ kind, macroId: macroId.replace(/&amp;/g, '&') });
  }
  return found;
}
