import type { Knex } from 'knex';
import { AppError } from '../../platform/http/app-error.ts';
import { prepareStorage } from '../../wiki/content-storage.ts';
import type { ContentIndexers } from '../../wiki/content-indexer.ts';
import { commentTitle } from '../../wiki/content.service.ts';
import { wikiImportPort as wiki, type ImportedContent } from '../../wiki/wiki-import-port.ts';
import { fingerprintOf, migrationRecords } from '../migration-records.repository.ts';
import { ContentIds, WIKI_SOURCE } from './content-ids.ts';
import type { SourceContent, SourceSpaceBundle } from './space-model.ts';
import type { People } from './space-people.ts';
import type { UnitCounter } from './unit-counter.ts';
import { effectiveRestriction } from './effective-restriction.ts';

const PROGRESS_EVERY = 100;
const KIND: Record<SourceContent['type'], string> = { page: 'pages', blogpost: 'blog posts', comment: 'comments' };

export const UNSERVED_MACROS = 'macros this host does not serve (left in the body as they are)';
/** The count of content imported hidden (each is also named in the unit's items). */
export const HIDDEN = 'content imported hidden (restricted to nobody; see the items below for how to lift it)';
const NAMES_NOBODY = 'its view restriction names only people this host does not have (the source did not include them)';
const NOTHING_IN_COMMON = 'its own view restriction and that of an ancestor that was not imported let nobody through together';
const PARENT_UNKNOWN = 'its parent page was not imported and the source did not say who may read it';

/** One item's failure, naming it: the space's report then says which page stopped the import and why. */
export class ContentRefused extends Error {}

const describe = (c: SourceContent) => `${c.type} ${c.id}${c.type === 'comment' ? '' : ` "${c.title}"`}`;

export interface ContentContext {
  bundle: SourceSpaceBundle;
  /** Members of a group the bundle names, at the source (for restrictions inherited from left-out ancestors). */
  membersOf: (group: string) => readonly string[];
  spaceId: number;
  people: People;
  indexers: ContentIndexers;
  count: UnitCounter;
  dryRun: boolean;
  progress: (m: string) => void;
}

/**
 * A space's pages, blog posts and comments in the bundle's order (parents and containers first), in the
 * space's transaction: ids kept where free and mapped where taken (content-ids.ts), bodies stored through the
 * same step as a REST save (macro ids kept, missing ones assigned, code boxes indexed), view restrictions
 * set. Content whose fingerprint matches its record is left as it is; a changed one gets a new version.
 */
export async function writeContent(trx: Knex, ctx: ContentContext): Promise<ContentIds> {
  const { bundle, count } = ctx;
  const ids = await ContentIds.plan(trx, bundle.content);
  const titles = new Map<number, string>();
  const seen = new Set<number>();
  const total = bundle.content.length;
  let done = 0;
  for (const item of bundle.content) {
    if (++done % PROGRESS_EVERY === 0 || done === total) ctx.progress(`space ${bundle.space.key}: content ${done}/${total}`);
    if (seen.has(item.id)) {
      count.skip('content listed twice (the first one was imported)');
      continue;
    }
    seen.add(item.id);
    try {
      await writeOne(trx, ctx, ids, titles, item);
    } catch (err) {
      const why = err instanceof AppError || err instanceof ContentRefused ? err.message : ((err as Error).message ?? String(err)).split('\n')[0];
      throw new ContentRefused(`${describe(item)}: ${why}`, { cause: err });
    }
  }
  if (ids.keptAny && !ctx.dryRun) await wiki.continueContentIds(trx);
  return ids;
}

/** Why a restricted item resolved to nobody: its own restriction named nobody here, or several had nobody in common. */
function hiddenReason(item: SourceContent): string {
  const own = item.viewRestrictions;
  const ownNamesNobody = own !== undefined && own.users.length + own.groups.length === 0;
  return (item.inheritedRestrictions?.length ?? 0) > 0 && !ownNamesNobody ? NOTHING_IN_COMMON : NAMES_NOBODY;
}

async function writeOne(trx: Knex, ctx: ContentContext, ids: ContentIds, titles: Map<number, string>, item: SourceContent): Promise<void> {
  const { count } = ctx;
  let parentId: number | null = null;
  let containerId: number | null = null;
  if (item.type === 'comment') {
    containerId = item.containerId === undefined ? null : (ids.of(item.containerId) ?? null);
    if (containerId === null) return count.skip('comments whose page or blog post is not imported');
  }
  let orphaned = false;
  if (item.type === 'page' && item.parentId !== undefined) {
    parentId = ids.of(item.parentId) ?? null;
    // The parent's restriction is unknown here: the page goes to the top hidden, never readable by more people.
    orphaned = parentId === null;
  }
  const title = item.type === 'comment' ? commentTitle(titles.get(containerId!) ?? '') : (item.title || `Untitled ${item.id}`).slice(0, 255);
  const body = await ctx.bundle.body(item.id);
  // Comments follow their container; a page or blog post keeps its own restriction and any a left-out ancestor had.
  const restricted = item.type === 'comment' ? undefined : effectiveRestriction(item, ctx.membersOf);
  const fingerprint = fingerprintOf({
    type: item.type,
    title,
    parent: item.type === 'page' ? (item.parentId ?? null) : null,
    container: item.containerId ?? null,
    position: item.position ?? null,
    version: item.version,
    creator: item.creator ?? null,
    createdAt: item.createdAt ?? null,
    updatedAt: item.updatedAt ?? null,
    restrictions: restricted ? { users: [...restricted.users].sort(), groups: [...restricted.groups].sort() } : null,
    ...(orphaned ? { orphaned } : {}),
    body,
  });
  const record = ids.records.get(item.id);
  const { id, mapped, existing } = await ids.assign(trx, item.id);
  titles.set(id, title);
  if (mapped) count.mapped.push({ kind: item.type, from: item.id, to: id });
  if (record && record.fingerprint === fingerprint) return count.add(KIND[item.type], 'unchanged');

  const prepared = prepareStorage(body, ctx.indexers);
  // The body is stored whole; macros no add-on here serves stay in it, shown as nothing (counted, issue 31).
  count.skip(UNSERVED_MACROS, prepared.macroNames.filter((name) => !ctx.indexers.serves(name)).length);
  const row: ImportedContent = {
    id,
    type: item.type,
    title,
    spaceId: ctx.spaceId,
    parentId,
    containerId,
    position: item.position ?? null,
    version: Math.max(1, item.version),
    body: prepared.xhtml,
    creatorId: item.creator === undefined ? null : (ctx.people.userId(item.creator) ?? null),
    createdAt: item.createdAt ?? null,
    updatedAt: item.updatedAt ?? null,
  };
  if (existing) {
    // A changed source record is a new version here, never an older number than ours.
    const current = await wiki.contentVersion(trx, id);
    row.version = Math.max(row.version, (current ?? 0) + 1);
    await wiki.updateContent(trx, row);
    count.add(KIND[item.type], 'updated');
  } else {
    await wiki.insertContent(trx, row);
    count.add(KIND[item.type], 'created');
  }
  await prepared.index(trx as Knex.Transaction, id);
  if (item.type !== 'comment') {
    const userIds = (restricted?.users ?? []).flatMap((n) => ctx.people.userId(n) ?? []);
    const groupIds = (restricted?.groups ?? []).flatMap((n) => ctx.people.groupId(n) ?? []);
    const why = orphaned ? PARENT_UNKNOWN : !restricted || userIds.length + groupIds.length > 0 ? undefined : hiddenReason(item);
    if (why !== undefined) {
      // Restricted at the source to people none of whom is here: kept, but nobody reads it until an
      // administrator says who may (never readable by the whole space, never dropped).
      await wiki.hideContent(trx, id);
      count.skip(HIDDEN);
      count.note({ kind: item.type, id: item.id, localId: id, title, outcome: 'hidden', reason: why });
    } else if (existing || userIds.length + groupIds.length > 0) await wiki.restrictContent(trx, id, userIds, groupIds);
  }
  await migrationRecords.save(trx, WIKI_SOURCE, 'content', { sourceId: String(item.id), localId: String(id), fingerprint });
}
