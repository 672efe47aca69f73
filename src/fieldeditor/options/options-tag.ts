import { createHash } from 'node:crypto';
import type { ListVersion } from './options-tree.repository.ts';

/**
 * The ETag of a context's option tree (issue 27): the context id and a hash of its lists' versions (see
 * listVersions). The same tag names the tree in both export formats: it identifies the state of the list,
 * which is what a sync's If-Match compares, not the bytes of one representation.
 */
export function treeTag(contextId: number, versions: readonly ListVersion[]): string {
  const text = [...versions]
    .map((v) => [Number(v.parent_key), Number(v.version)] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}:${v}`)
    .join(',');
  return `"options-${contextId}-${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;
}

/** Whether an If-Match or If-None-Match header names the tag (a list of tags, `*`, weak tags compared weakly for If-None-Match). */
export function headerNames(header: string | undefined, tag: string, weak: boolean): boolean {
  if (header === undefined) return false;
  return header.split(',').some((raw) => {
    const t = raw.trim();
    if (t === '*') return true;
    return (weak && t.startsWith('W/') ? t.slice(2) : t) === tag;
  });
}
