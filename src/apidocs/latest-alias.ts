// The tracker host answers every `/rest/api/2` endpoint under `/rest/api/latest` too (app.ts mounts the same
// routers under both); the description lists both paths, so that the route walk finds each one described and
// a generated client can use either.
const VERSIONED = '/rest/api/2/';
const LATEST = '/rest/api/latest/';

/** `ops`, followed by a copy of each `/rest/api/2` operation under `/rest/api/latest`. */
export function withLatestAliases<T extends { path: string; summary: string }>(ops: readonly T[]): T[] {
  const aliases = ops
    .filter((op) => op.path.startsWith(VERSIONED))
    .map((op) => ({ ...op, path: LATEST + op.path.slice(VERSIONED.length), summary: `${op.summary} (\`latest\`: the same as /rest/api/2)` }));
  return [...ops, ...aliases];
}
