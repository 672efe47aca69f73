import type { FieldProblem } from '../../platform/http/app-error.ts';
import { DUPLICATE_MESSAGE } from './options.errors.ts';
import { valueKey } from './options.model.ts';
import { joinPath } from './option-path.ts';
import type { FileNode } from './options-sync.input.ts';
import type { TreeRow } from './options-tree.repository.ts';

/**
 * The difference between a context's option tree and the tree a file wants (issue 27), and the writes that
 * make the one the other. Matching: a file option with an id is that option (wherever it is now: a new place
 * is a move); one without is the not yet matched option of the same name (the list's rule) under the same
 * parent; the rest are new. Options of the list the file does not name are deleted with `allowDelete`,
 * otherwise kept where they are (listed as `unlisted`). Pure: the caller reads the tree and writes the plan.
 */
export interface SyncDiff {
  create: { path: string; optionvalue: string; parentId: number | null; disabled: boolean; position: number }[];
  rename: { id: number; path: string; from: string; to: string }[];
  move: { id: number; path: string; fromParentId: number | null; toParentId: number | null; fromPosition: number; toPosition: number }[];
  disable: { id: number; path: string; default?: true }[];
  enable: { id: number; path: string }[];
  /** `options`: how many options go (the option and its descendants the file does not keep elsewhere). */
  delete: { id: number; path: string; options: number; default?: true }[];
  /** Not in the file and kept (allowDelete=false): what allowDelete=true would delete. */
  unlisted: { id: number; path: string; default?: true }[];
}

/** A parent in the plan: an existing option, a created one (known once its level is inserted), or the top level. */
export type PlanParent = { id: number } | { node: FileNode } | null;

export interface SyncPlan {
  diff: SyncDiff;
  /** Existing options whose value key must be moved aside before anything else (renamed, moved away, deleted). */
  asideIds: number[];
  /** Created options, level by level (a parent always on an earlier level). */
  creates: { node: FileNode; parent: PlanParent; position: number; disabled: boolean }[][];
  /** Existing options to write (members absent: unchanged); a created parent is resolved when it is written. */
  updates: { id: number; value?: string; disabled?: boolean; parent?: PlanParent; position?: number }[];
  /** Topmost deleted options (their descendants go by cascade, apart from those moved out first). */
  deletes: number[];
  /** One change per option, for the event log. */
  changes: { id?: number; node?: FileNode; kind: string; before: TreeRow | null; after: { value: string; disabled: boolean; parent: PlanParent; position: number } | null }[];
}

/** How deep lists may go: 1 (plain selects), 2 (cascading), unlimited (multi-level cascading). */
export type MaxDepth = number;

/** Longest increasing subsequence of `seq` (indices into it): the options that keep their relative order. */
function keptInOrder(seq: readonly number[]): Set<number> {
  const tails: number[] = [];
  const prev: number[] = new Array<number>(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const kept = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i >= 0; i = prev[i]!) kept.add(i);
  return kept;
}

export function diffTree(tree: readonly TreeRow[], forest: readonly FileNode[], maxDepth: MaxDepth, allowDelete: boolean): { plan: SyncPlan; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const byId = new Map(tree.map((r) => [r.id, r] as const));
  const childrenOf = new Map<number, TreeRow[]>();
  for (const r of tree) {
    const k = r.parent_id ?? 0;
    const list = childrenOf.get(k);
    if (list) list.push(r);
    else childrenOf.set(k, [r]);
  }
  const match = new Map<FileNode, TreeRow>();
  const claimed = new Map<number, FileNode>();

  // Ids first, anywhere in the file; then names, list by list, among the options of the matched parent.
  // Iterative, depth first in the file's order (a stack of nodes, children pushed last first): a file of any
  // depth costs no call stack (issue 44).
  const preorder = <T>(first: readonly T[], childrenOf: (x: T) => readonly T[], step: (x: T) => void) => {
    const stack = [...first].reverse();
    while (stack.length > 0) {
      const x = stack.pop()!;
      step(x);
      const kids = childrenOf(x);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  };
  preorder(forest, (n) => n.children, (n) => {
    if (n.id === undefined) return;
    const row = byId.get(n.id);
    if (!row) problems.push({ name: `${n.where}.id`, message: `There is no option ${n.id} in this context (leave the id out to create the option).`, value: { id: n.id } });
    else if (claimed.has(n.id)) problems.push({ name: `${n.where}.id`, message: `The option ${n.id} is on ${claimed.get(n.id)!.where} already.`, value: { id: n.id } });
    else {
      claimed.set(n.id, n);
      match.set(n, row);
    }
  });
  // Unclaimed options of a list by name key, built when the list is first asked (a linear search per file
  // option would be quadratic in a list of 100,000); claimed ones are dropped from the front as they are met.
  const byName = new Map<number, Map<string, TreeRow[]>>();
  const unclaimedNamed = (parentId: number, key: string): TreeRow | undefined => {
    let names = byName.get(parentId);
    if (!names) {
      names = new Map();
      for (const r of childrenOf.get(parentId) ?? []) {
        const k = valueKey(r.value);
        const list = names.get(k);
        if (list) list.push(r);
        else names.set(k, [r]);
      }
      byName.set(parentId, names);
    }
    const list = names.get(key) ?? [];
    while (list.length > 0 && claimed.has(list[0]!.id)) list.shift();
    return list[0];
  };
  // Names: a node's parent is matched before its children are taken (depth first), so their list is known.
  type Named = { n: FileNode; parentId: number | undefined; depth: number };
  preorder<Named>(
    forest.map((n) => ({ n, parentId: 0, depth: 0 })),
    (x) => x.n.children.map((c) => ({ n: c, parentId: match.get(x.n)?.id, depth: x.depth + 1 })),
    ({ n, parentId, depth }) => {
      if (depth >= maxDepth) problems.push({ name: n.where, message: `This field's options have at most ${maxDepth} level${maxDepth === 1 ? '' : 's'}; this one would be on level ${depth + 1}.` });
      if (!match.has(n) && n.id === undefined && parentId !== undefined) {
        const row = unclaimedNamed(parentId, valueKey(n.value));
        if (row) {
          claimed.set(row.id, n);
          match.set(n, row);
        }
      }
    },
  );

  const unmatched = tree.filter((r) => !claimed.has(r.id));
  const unmatchedIds = new Set(unmatched.map((r) => r.id));
  const kept = allowDelete ? new Set<number>() : unmatchedIds;
  const pathOfRow = (r: TreeRow) => joinPath(r.names);

  const diff: SyncDiff = { create: [], rename: [], move: [], disable: [], enable: [], delete: [], unlisted: [] };
  const plan: SyncPlan = { diff, asideIds: [], creates: [], updates: [], deletes: [], changes: [] };

  // Every wanted list: its members in their final order (file options, and kept options after the sibling they follow now).
  // Iterative (issue 44): a stack of lists, each with the next member to place; a member's children are a list
  // opened on top of its own, so the order is the recursion's (depth first) and any depth costs no call stack.
  // Paths are texts extended by one name per level (not arrays copied at every level).
  const open = (nodes: readonly FileNode[], parent: PlanParent, parentPath: string | undefined, parentRowId: number | undefined, depth: number) => {
    const sorted = nodes.map((n, i) => ({ n, i })).sort((a, b) => (a.n.position ?? a.i) - (b.n.position ?? b.i) || a.i - b.i).map((x) => x.n);
    const after = new Map<number | 'start', TreeRow[]>();
    if (parentRowId !== undefined) {
      const here = new Set(sorted);
      let anchor: number | 'start' = 'start';
      for (const c of childrenOf.get(parentRowId) ?? []) {
        if (kept.has(c.id)) {
          const list = after.get(anchor);
          if (list) list.push(c);
          else after.set(anchor, [c]);
          anchor = c.id;
        } else {
          const n = claimed.get(c.id);
          if (n && here.has(n)) anchor = c.id;
        }
      }
    }
    const members: ({ node: FileNode } | { row: TreeRow })[] = [];
    // Kept options follow one another (each the anchor of the next): a stack, not a recursion as deep as the list.
    const emitKept = (key: number | 'start') => {
      const stack = [...(after.get(key) ?? [])].reverse();
      while (stack.length > 0) {
        const r = stack.pop()!;
        members.push({ row: r });
        const next = after.get(r.id) ?? [];
        for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
      }
    };
    emitKept('start');
    for (const n of sorted) {
      members.push({ node: n });
      const row = match.get(n);
      if (row) emitKept(row.id);
    }
    // Sibling names by the list's rule, in the final list.
    const holder = new Map<string, { where?: string; id?: number }>();
    for (const m of members) {
      const value = 'node' in m ? m.node.value : m.row.value;
      const key = valueKey(value);
      const other = holder.get(key);
      if (other) {
        const where = 'node' in m ? m.node.where : other.where;
        const existing = 'node' in m ? (other.id ?? match.get(m.node)?.id) : m.row.id;
        problems.push({ name: where ? (where.startsWith('row') ? `${where}.path` : `${where}.optionvalue`) : 'options', message: DUPLICATE_MESSAGE, value: { optionvalue: value, ...(existing === undefined ? {} : { existingOptionId: existing }) } });
      } else holder.set(key, 'node' in m ? { where: m.node.where, ...(match.get(m.node) ? { id: match.get(m.node)!.id } : {}) } : { id: m.row.id });
    }
    // Which existing members moved: from another list, or out of their relative order (the longest run kept in order stays).
    const existingHere = members.map((m, i) => ({ row: 'node' in m ? match.get(m.node) : m.row, i })).filter((x): x is { row: TreeRow; i: number } => x.row !== undefined);
    const sameList = existingHere.filter((x) => (x.row.parent_id ?? 0) === (parentRowId ?? -1));
    const inOrder = keptInOrder(sameList.map((x) => x.row.seq));
    const stays = new Set(sameList.filter((_, i) => inOrder.has(i)).map((x) => x.row.id));
    const rewrite = members.length !== sameList.length || stays.size !== sameList.length || (childrenOf.get(parentRowId ?? -1) ?? []).length !== sameList.length;
    const parentIdNow = parentRowId === undefined ? null : parentRowId === 0 ? null : parentRowId;
    const level: SyncPlan['creates'][number] = (plan.creates[depth] ??= []);

    return { members, parent, parentPath, parentRowId, depth, rewrite, stays, parentIdNow, level, next: 0 };
  };
  const lists = [open(forest, null, undefined, 0, 0)];
  while (lists.length > 0) {
    const list = lists.at(-1)!;
    if (list.next >= list.members.length) {
      lists.pop();
      continue;
    }
    const { members, parent, parentPath, parentRowId, depth, rewrite, stays, parentIdNow, level } = list;
    const position = list.next++;
    const m = members[position]!;
    if (!('node' in m)) {
      if (rewrite) plan.updates.push({ id: m.row.id, position });
      continue;
    }
    const n = m.node;
    const path = parentPath === undefined ? joinPath([n.value]) : `${parentPath}/${joinPath([n.value])}`;
    const row = match.get(n);
    if (!row) {
      const disabled = n.disabled ?? false;
      diff.create.push({ path, optionvalue: n.value, parentId: parentIdNow, disabled, position });
      level.push({ node: n, parent, position, disabled });
      plan.changes.push({ node: n, kind: 'option.created', before: null, after: { value: n.value, disabled, parent, position } });
    } else {
      const renamed = row.value !== n.value;
      const reparented = (row.parent_id ?? 0) !== (parentRowId ?? -1);
      const moved = reparented || !stays.has(row.id);
      const toggled = n.disabled !== undefined && n.disabled !== row.disabled;
      const disabled = n.disabled ?? row.disabled;
      const p = path;
      if (renamed) diff.rename.push({ id: row.id, path: p, from: row.value, to: n.value });
      if (moved) diff.move.push({ id: row.id, path: p, fromParentId: row.parent_id, toParentId: parentIdNow, fromPosition: row.seq, toPosition: position });
      if (toggled && disabled) diff.disable.push({ id: row.id, path: p, ...(row.is_default ? { default: true as const } : {}) });
      if (toggled && !disabled) diff.enable.push({ id: row.id, path: p });
      if (renamed || reparented) plan.asideIds.push(row.id);
      if (renamed || toggled || reparented || rewrite) {
        plan.updates.push({
          id: row.id,
          ...(renamed ? { value: n.value } : {}),
          ...(toggled ? { disabled } : {}),
          ...(reparented ? { parent } : {}),
          ...(rewrite ? { position } : {}),
        });
      }
      const aspects = [renamed, moved, toggled].filter(Boolean).length;
      if (aspects > 0) {
        const kind = aspects > 1 ? 'option.updated' : renamed ? 'option.renamed' : moved ? 'option.moved' : disabled ? 'option.disabled' : 'option.enabled';
        plan.changes.push({ id: row.id, kind, before: row, after: { value: n.value, disabled, parent, position } });
      }
    }
    lists.push(open(n.children, row ? { id: row.id } : { node: n }, path, row?.id, depth + 1));
  }

  // Options the file leaves out: deleted (the topmost ones; descendants the file keeps elsewhere moved out first) or kept.
  const descendantsGone = new Map<number, number>();
  const defaultBelow = new Set<number>();
  for (const r of [...tree].reverse()) {
    if (!unmatchedIds.has(r.id)) continue;
    const p = r.parent_id;
    if (p !== null && unmatchedIds.has(p)) {
      descendantsGone.set(p, (descendantsGone.get(p) ?? 0) + 1 + (descendantsGone.get(r.id) ?? 0));
      if (r.is_default || defaultBelow.has(r.id)) defaultBelow.add(p);
    }
  }
  for (const r of unmatched) {
    if (r.parent_id !== null && unmatchedIds.has(r.parent_id)) continue;
    const isDefault = r.is_default || defaultBelow.has(r.id) ? { default: true as const } : {};
    if (allowDelete) {
      diff.delete.push({ id: r.id, path: pathOfRow(r), options: 1 + (descendantsGone.get(r.id) ?? 0), ...isDefault });
      plan.deletes.push(r.id);
      plan.changes.push({ id: r.id, kind: 'option.deleted', before: r, after: null });
    } else diff.unlisted.push({ id: r.id, path: pathOfRow(r), ...isDefault });
  }
  if (allowDelete) plan.asideIds.push(...unmatched.map((r) => r.id));
  plan.creates = plan.creates.filter((l) => l.length > 0);
  return { plan, problems };
}
