/**
 * The `path` of an option in the CSV form (issue 27): its names from the top level joined with `/`, a `/` or
 * `\` inside a name escaped by `\` (`AC/DC` → `AC\/DC`), so any name survives the round trip.
 */
export const joinPath = (names: readonly string[]): string => names.map((n) => n.replace(/[\\/]/g, (c) => `\\${c}`)).join('/');

/** The names of a path; undefined when it ends in a lone `\` or has an empty name (`a//b`, `/a`). */
export function splitPath(path: string): string[] | undefined {
  const names: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === '\\') {
      if (i + 1 >= path.length) return undefined;
      current += path[++i];
    } else if (c === '/') {
      names.push(current);
      current = '';
    } else current += c;
  }
  names.push(current);
  return names.some((n) => n.trim() === '') ? undefined : names;
}
