// The config block of a code box: INI sections, each of which becomes one code block.
// The original app's INI rules are unpublished. We never reject a body for INI reasons
// (a page the original accepted must keep working); lines we cannot use are skipped and
// reported as warnings so that callers can log or show them.

export interface ConfigSection {
  /** Trimmed text between the brackets; spaces and any letters allowed; case-sensitive. */
  name: string;
  /** key → value, both trimmed; keys are case-sensitive. */
  values: ReadonlyMap<string, string>;
}

export interface ConfigWarning {
  /** 1-based line number inside the config block. */
  line: number;
  text: string;
  reason: string;
}

export interface ParsedConfig {
  sections: ConfigSection[];
  warnings: ConfigWarning[];
}

// Same line ends the `[content]` split accepts: CRLF, LF-CR, CR, LF.
const LINE_BREAK = /\r\n|\n\r|\r|\n/;

/**
 * Rules (documented in docs/codeblocks-api.md):
 * - `[name]` opens a section; name trimmed (String.prototype.trim, so NBSP too).
 *   `[]` (blank name) is skipped with a warning, and so are its keys.
 * - `key = value`: split at the first `=`, both sides trimmed; later `=` belong to the value;
 *   `key =` gives an empty value; a line starting with `=` (no key) is skipped with a warning.
 * - Whole-line comments start with `;` or `#` (after leading blanks). No inline comments:
 *   `url = http://x/#top ; y` keeps everything after `=`, as values are code.
 * - Blank lines are ignored; so is a line that is neither (warning).
 * - Keys before the first section belong to no block: skipped with a warning.
 * - A section name seen again continues the first one (its keys are added, position kept);
 *   a repeated key within a section: the last value wins.
 */
export function parseConfig(text: string): ParsedConfig {
  const byName = new Map<string, Map<string, string>>();
  const warnings: ConfigWarning[] = [];
  let current: Map<string, string> | undefined;
  let inBlankSection = false;

  text.split(LINE_BREAK).forEach((raw, i) => {
    const line = raw.trim();
    const warn = (reason: string): void => {
      warnings.push({ line: i + 1, text: raw, reason });
    };
    if (line === '' || line.startsWith(';') || line.startsWith('#')) return;
    if (line.startsWith('[') && line.endsWith(']') && line.length >= 2) {
      const name = line.slice(1, -1).trim();
      if (name === '') {
        current = undefined;
        inBlankSection = true;
        warn('section without a name; its keys are ignored');
        return;
      }
      inBlankSection = false;
      current = byName.get(name);
      if (current === undefined) {
        current = new Map();
        byName.set(name, current);
      }
      return;
    }
    const eq = line.indexOf('=');
    if (eq < 0) return warn('not a section, key = value pair or comment');
    const key = line.slice(0, eq).trim();
    if (key === '') return warn('key missing before "="');
    if (current === undefined) {
      if (!inBlankSection) warn('key outside any section');
      return;
    }
    current.set(key, line.slice(eq + 1).trim());
  });

  const sections = [...byName].map(([name, values]) => ({ name, values }));
  return { sections, warnings };
}
