// After the first pass: the export's facts resolved into one SourceSpaceBundle per space. What is imported is
// the current, published content of the space; what is not (drafts, deleted content, older versions,
// attachments, edit restrictions …) is counted per space. Content is ordered parents first and containers
// before their comments, as the space writer needs; siblings keep the source's order (position, then title).
import type { SourceContent, SourceGroup, SourceItemNote, SourceSpaceBundle, SourceUser } from '../wiki/space-model.ts';
import type { BodySpool } from './body-spool.ts';
import type { BodyMeta, ContentMeta, ExportIndex, SpaceMeta } from './export-index.ts';
import { restrictionsOf, type Restrictions, type ViewRestriction } from './restrictions.ts';

type Counts = Record<string, number>;

const bump = (c: Counts, k: string, n = 1) => {
  if (n > 0) c[k] = (c[k] ?? 0) + n;
};

const bySiblingOrder = (a: ContentMeta, b: ContentMeta) =>
  (a.position ?? Infinity) - (b.position ?? Infinity) || a.title.localeCompare(b.title) || a.id - b.id;
const byTime = (a: ContentMeta, b: ContentMeta) => (a.created ?? 0) - (b.created ?? 0) || a.id - b.id;

export function bodyOf(index: ExportIndex, c: ContentMeta): BodyMeta | undefined {
  const direct = index.bodyByContent.get(c.id);
  if (direct?.storage) return direct;
  const listed = (c.bodyIds ?? []).map((b) => index.bodyById.get(b)).filter((b) => b !== undefined);
  return listed.find((b) => b.storage) ?? direct ?? listed[0];
}

const TYPE = { page: 'page', blogpost: 'blogpost', comment: 'comment' } as const;
const note = (c: ContentMeta, reason: string): SourceItemNote => ({
  type: c.kind === 'description' ? 'page' : TYPE[c.kind],
  id: c.id,
  title: c.title,
  reason,
});

/** Why a content of the space is not imported (undefined: it is). */
function leftOutBecause(c: ContentMeta): string | undefined {
  if (c.status === 'draft') return 'drafts';
  if (c.status === 'deleted' || c.status === 'trashed') return 'deleted content';
  if (c.status !== 'current') return `content with status ${c.status}`;
  return undefined;
}

interface Placed {
  c: ContentMeta;
  parentId?: number;
  /** Restrictions of the left-out ancestors between the page and `parentId` (or the top). */
  inherited?: ViewRestriction[];
}

/**
 * The content of one space in import order, with what was left out counted in `skipped` and named in `notes`.
 * A page whose parent is left out goes under its nearest imported ancestor (or to the top) and carries the
 * view restrictions of the ancestors it skipped, so it is never readable by more people than at the source.
 */
function orderContent(all: ContentMeta[], skipped: Counts, notes: SourceItemNote[], restrictions: Restrictions) {
  const imported = new Map<number, ContentMeta>();
  const byId = new Map(all.map((c) => [c.id, c]));
  for (const c of all) {
    const why = leftOutBecause(c);
    if (why === undefined) imported.set(c.id, c);
    else {
      bump(skipped, why);
      notes.push(note(c, why));
    }
  }
  const pages = [...imported.values()].filter((c) => c.kind === 'page');
  const children = new Map<number | undefined, Placed[]>();
  for (const p of pages) {
    const placed: Placed = { c: p };
    let parent = p.parentId;
    const seen = new Set<number>([p.id]);
    // Up through left-out ancestors (a deleted or draft parent), collecting their restrictions.
    while (parent !== undefined && imported.get(parent)?.kind !== 'page' && !seen.has(parent)) {
      seen.add(parent);
      const r = restrictions.view.get(parent);
      if (r) (placed.inherited ??= []).push(r);
      parent = byId.get(parent)?.kind === 'page' ? byId.get(parent)!.parentId : undefined;
    }
    if (parent !== undefined && imported.get(parent)?.kind !== 'page') parent = undefined;
    if (parent !== p.parentId) bump(skipped, 'pages placed under a nearer ancestor or at the top (parent not imported; its restriction kept)');
    if (parent !== undefined) placed.parentId = parent;
    const list = children.get(parent) ?? [];
    list.push(placed);
    children.set(parent, list);
  }
  const ordered: Placed[] = [];
  const done = new Set<number>();
  const walk = (parent: number | undefined) => {
    for (const p of (children.get(parent) ?? []).sort((a, b) => bySiblingOrder(a.c, b.c))) {
      if (done.has(p.c.id)) continue;
      done.add(p.c.id);
      ordered.push(p);
      walk(p.c.id);
    }
  };
  walk(undefined);
  // Pages in a parent cycle are reached from no root: they go to the top rather than being lost.
  for (const p of [...children.values()].flat().filter((q) => !done.has(q.c.id)).sort((a, b) => bySiblingOrder(a.c, b.c))) {
    done.add(p.c.id);
    ordered.push({ c: p.c, ...(p.inherited ? { inherited: p.inherited } : {}) });
    walk(p.c.id);
  }
  for (const b of [...imported.values()].filter((c) => c.kind === 'blogpost').sort(byTime)) ordered.push({ c: b });
  for (const m of [...imported.values()].filter((c) => c.kind === 'comment').sort(byTime)) {
    const container = m.containerId === undefined ? undefined : imported.get(m.containerId);
    if (container && container.kind !== 'comment') ordered.push({ c: m });
    else {
      bump(skipped, 'comments on content not imported');
      notes.push(note(m, 'comments on content not imported'));
    }
  }
  return ordered;
}

export async function assembleSpace(
  index: ExportIndex,
  spool: BodySpool,
  space: SpaceMeta,
  members: (c: ContentMeta) => boolean,
  extraDropped: number,
): Promise<SourceSpaceBundle> {
  const skipped: Counts = {};
  const all = [...index.content.values()].filter(members);
  const restrictions = restrictionsOf(index, new Set(all.map((c) => c.id)));
  const notes: SourceItemNote[] = [];
  const ordered = orderContent(all, skipped, notes, restrictions);
  for (const c of all) {
    bump(skipped, 'historical versions', index.historyOf.get(c.id) ?? 0);
    bump(skipped, 'attachments', index.attachmentsOn.get(c.id) ?? 0);
    bump(skipped, 'forbidden characters dropped', c.dropped + (index.droppedInBody.get(c.id) ?? 0));
  }
  bump(skipped, 'edit restrictions', restrictions.editSets);
  const descId = space.descriptionId;
  const descDropped =
    descId === undefined ? 0 : (index.droppedInBody.get(descId) ?? 0) + (index.content.get(descId)?.dropped ?? 0);
  bump(skipped, 'forbidden characters dropped', extraDropped + descDropped);

  const bodies = new Map<number, BodyMeta>();
  const userKeys = new Set<string>();
  const content: SourceContent[] = ordered.map(({ c, parentId, inherited }) => {
    const body = bodyOf(index, c);
    if (body) bodies.set(c.id, body);
    if (body && !body.storage) bump(skipped, 'bodies not in storage format');
    if (c.creatorKey) userKeys.add(c.creatorKey);
    const view = restrictions.view.get(c.id);
    for (const r of [view, ...(inherited ?? [])]) r?.userKeys.forEach((k) => userKeys.add(k));
    const item: SourceContent = {
      id: c.id,
      type: c.kind === 'blogpost' ? 'blogpost' : c.kind === 'comment' ? 'comment' : 'page',
      title: c.title,
      version: c.version,
    };
    if (parentId !== undefined) item.parentId = parentId;
    if (c.kind === 'comment') item.containerId = c.containerId;
    if (c.position !== undefined) item.position = c.position;
    const creator = (c.creatorKey ? index.people.userByKey.get(c.creatorKey)?.name : undefined) ?? c.creatorName;
    if (creator) item.creator = creator;
    if (c.created !== undefined) item.createdAt = new Date(c.created);
    if (c.updated !== undefined) item.updatedAt = new Date(c.updated);
    if (view) item.viewRestrictions = { users: view.users, groups: view.groups };
    if (inherited) item.inheritedRestrictions = inherited.map((r) => ({ users: r.users, groups: r.groups }));
    return item;
  });

  const groupNames = new Set(content.flatMap((c) => [c.viewRestrictions, ...(c.inheritedRestrictions ?? [])].flatMap((r) => r?.groups ?? [])));
  const groups: SourceGroup[] = [...groupNames].sort().map((name) => ({ name, members: restrictions.membersOf(name) }));
  const userNames = new Set<string>();
  for (const k of userKeys) {
    const u = index.people.userByKey.get(k);
    if (u) userNames.add(u.name);
  }
  groups.forEach((g) => g.members.forEach((m) => userNames.add(m)));
  // 4.x exports name creators and restricted-to users by name only: those are the space's users too.
  for (const c of content) {
    if (c.creator) userNames.add(c.creator);
    for (const r of [c.viewRestrictions, ...(c.inheritedRestrictions ?? [])]) r?.users.forEach((u) => userNames.add(u));
  }
  const emails = new Map([...index.people.userByKey.values()].map((u) => [u.name, u.email]));
  const users: SourceUser[] = [...userNames].sort().map((name) => sourceUser(index, name, emails.get(name)));

  const descMeta = space.descriptionId === undefined ? undefined : index.content.get(space.descriptionId);
  const descBody = descMeta && bodyOf(index, descMeta);
  const home = space.homePageId;
  return {
    space: {
      id: space.id,
      key: space.key,
      name: space.name,
      description: descBody ? await spool.read(descBody) : '',
      ...(home !== undefined && content.some((c) => c.id === home) ? { homePageId: home } : {}),
    },
    content,
    users,
    groups,
    notImported: skipped,
    notImportedItems: notes,
    async body(contentId: number): Promise<string> {
      const b = bodies.get(contentId);
      return b?.storage ? spool.read(b) : '';
    },
  };
}

/** A user as the directory objects describe them, else as the wiki's user record (name and email) does. */
function sourceUser(index: ExportIndex, name: string, implEmail: string | undefined): SourceUser {
  const d = index.people.directoryUsers.get(name.toLowerCase());
  const user: SourceUser = { name };
  const displayName = d?.displayName;
  const email = d?.email ?? implEmail;
  if (displayName) user.displayName = displayName;
  if (email) user.email = email;
  if (d?.active !== undefined) user.active = d.active;
  return user;
}
