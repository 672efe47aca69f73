import { ApiError, contextPath, messageOf } from '../api.ts';
import type { OptionPaths, OptionRecord } from '../fieldeditor.ts';

/**
 * The last sort or move of one list, kept so that it can be undone: the list's order before, and the list as
 * it was right after (ids with their values and states), which is what "not changed since" is checked against.
 */
export interface UndoStep {
  kind: 'sort' | 'move';
  /** null: the top-level list; otherwise the option whose children were sorted or moved. */
  parentId: number | null;
  /** The list in words, for the button and the messages ("the top-level options", "the child options of America"). */
  listName: string;
  before: number[];
  after: string;
}

/** A list's state as compared by the undo: order, values and enabled state. */
export const fingerprint = (list: Pick<OptionRecord, 'id' | 'optionvalue' | 'disabled'>[]): string =>
  JSON.stringify(list.map((o) => [o.id, o.optionvalue, o.disabled]));

/** The export's JSON node (docs/fieldeditor-api.md, "Lists in bulk"). */
interface TreeNode {
  id: number;
  optionvalue: string;
  disabled: boolean;
  position?: number;
  children?: TreeNode[];
}
interface Tree {
  options: TreeNode[];
}

export class UndoRefused extends Error {}

function findList(nodes: TreeNode[], parentId: number | null): TreeNode[] | undefined {
  if (parentId === null) return nodes;
  for (const n of nodes) {
    if (n.id === parentId) return n.children ?? [];
    const inner = n.children && findList(n.children, parentId);
    if (inner) return inner;
  }
  return undefined;
}

async function send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<{ body: unknown; etag: string | null }> {
  const res = await fetch(contextPath + url, {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'X-Atlassian-Token': 'no-check', 'X-Requested-With': 'XMLHttpRequest', ...headers },
    body,
  });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  if (!res.ok) throw new ApiError(res.status, messageOf(data, res.status), data);
  return { body: data, etag: res.headers.get('ETag') };
}

/**
 * Puts a list back in its order before the step. The whole tree is exported (with its ETag), the list is
 * checked against the state right after the step, and the tree with that list in its old order is synced under
 * the export's ETag as If-Match: the server writes it only if nothing at all changed in between (412 otherwise),
 * in one transaction, so a change made by anyone after the check is never overwritten.
 */
export async function undoStep(paths: OptionPaths, step: UndoStep): Promise<void> {
  const exported = await send('GET', `${paths.list(null)}/export?format=json`, {});
  const tree = exported.body as Tree;
  const list = findList(tree.options, step.parentId);
  if (!list || !exported.etag || fingerprint(list) !== step.after) throw new UndoRefused();
  const byId = new Map(list.map((n) => [n.id, n]));
  const restored = step.before.map((id) => byId.get(id)).filter((n): n is TreeNode => n !== undefined);
  if (restored.length !== list.length) throw new UndoRefused();
  restored.forEach((n, i) => (n.position = i));
  list.splice(0, list.length, ...restored);
  try {
    await send('POST', `${paths.list(null)}/sync?dryRun=false&allowDelete=false`, { 'Content-Type': 'application/json', 'If-Match': exported.etag }, JSON.stringify(tree));
  } catch (e) {
    if (e instanceof ApiError && e.status === 412) throw new UndoRefused();
    throw e;
  }
}
