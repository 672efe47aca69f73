import type { Knex } from 'knex';
import { AppError } from '../platform/http/app-error.ts';
import { usersRepository } from '../directory/users.repository.ts';
import { groupsRepository } from '../directory/groups.repository.ts';
import { importPart, type ImportPart } from '../platform/import/import-part.ts';
import type { ContentIndexers } from './content-indexer.ts';
import { importContent, importSpaces } from './wiki-import.schema.ts';
import { WIKI_TOPIC } from './wiki-write.ts';
import { spacesRepository as spaces } from './spaces.repository.ts';
import { contentRepository as contents } from './content.repository.ts';
import { restrictionsRepository as restrictions } from './restrictions.repository.ts';
import { prepareStorage } from './content-storage.ts';
import { commentTitle } from './content.service.ts';
import {
  importBadReference,
  importItemRefused,
  importSpaceKeyClash,
  importUnknownGroup,
  importUnknownSpace,
  importUnknownUser,
} from './wiki.errors.ts';

const PROGRESS_EVERY = 100;

async function userId(trx: Knex, name: string, where: string): Promise<number> {
  const u = await usersRepository.findByName(trx, name);
  if (!u) throw importUnknownUser(where, name);
  return u.id;
}

async function groupId(trx: Knex, name: string, where: string): Promise<number> {
  const g = await groupsRepository.findByName(trx, name);
  if (!g) throw importUnknownGroup(where, name);
  return g.id;
}

/** Spaces with their permissions. An existing space (same key) is skipped; its missing grants are added. */
const spacesImport = importPart({ spaces: importSpaces }, [WIKI_TOPIC], async (trx, doc, { summary }) => {
  const s = (summary.spaces = { created: 0, skipped: 0 });
  const p = (summary.spacePermissions = { created: 0, skipped: 0 });
  for (const item of doc.spaces ?? []) {
    let space = await spaces.findByKey(trx, item.key);
    if (space) s.skipped++;
    else if (await spaces.keyTaken(trx, item.key)) {
      throw importSpaceKeyClash(item.key);
    } else {
      space = await spaces.insert(trx, { key: item.key, name: item.name, description: item.description ?? '' });
      s.created++;
    }
    for (const perm of item.permissions ?? []) {
      const where = `Space ${item.key}`;
      const wanted = {
        spaceId: space.id,
        userId: perm.user === undefined ? null : await userId(trx, perm.user, where),
        groupId: perm.group === undefined ? null : await groupId(trx, perm.group, where),
        operation: perm.operation,
        target: perm.target,
      };
      if (await spaces.findPermission(trx, wanted)) p.skipped++;
      else {
        await spaces.insertPermission(trx, wanted);
        p.created++;
      }
    }
  }
});

/**
 * Pages, blog posts and comments, through the same storage step as a REST save (parse, macro ids,
 * code-box index). Skipped: an item whose `id` exists, or, without `id`, one whose space, type, title and
 * parent/container match existing current content. Content with explicit ids moves the id sequence on.
 */
const contentImport = (indexers: ContentIndexers) =>
  importPart({ content: importContent }, [WIKI_TOPIC], async (trx, doc, { progress, summary }) => {
  const list = doc.content ?? [];
  const c = (summary.content = { created: 0, skipped: 0 });
  let explicitIds = false;
  for (let i = 0; i < list.length; i++) {
    const item = list[i]!;
    if ((i + 1) % PROGRESS_EVERY === 0 || i + 1 === list.length) progress(`content: ${i + 1}/${list.length}`);
    const where = `Content #${i + 1}${item.id === undefined ? '' : ` (id ${item.id})`}`;
    const space = await spaces.findByKey(trx, item.space);
    if (!space) throw importUnknownSpace(where, item.space);
    const ref = item.parentId ?? item.containerId;
    const refRow = ref === undefined ? undefined : await contents.findRow(trx, ref);
    if (ref !== undefined) {
      const okTypes = item.type === 'comment' ? ['page', 'blogpost'] : ['page'];
      if (!refRow || refRow.space_id !== space.id || !okTypes.includes(refRow.type)) {
        throw importBadReference(where, item.type === 'comment' ? 'container' : 'parent', ref, okTypes, space.key);
      }
    }
    const title = item.type === 'comment' ? commentTitle(refRow?.title ?? '') : item.title!;
    if (await exists(trx, item.id, { spaceId: space.id, type: item.type, title, parentId: item.parentId, containerId: item.containerId })) {
      c.skipped++;
      continue;
    }
    let prepared;
    try {
      prepared = prepareStorage(item.body, indexers);
    } catch (err) {
      if (err instanceof AppError) throw importItemRefused(where, err);
      throw err;
    }
    const author = item.author === undefined ? null : await userId(trx, item.author, where);
    const id = await contents.insert(trx, {
      id: item.id,
      type: item.type,
      title,
      spaceId: space.id,
      parentId: item.parentId ?? null,
      containerId: item.containerId ?? null,
      body: prepared.xhtml,
      userId: author,
    });
    explicitIds ||= item.id !== undefined;
    await contents.insertVersion(trx, { contentId: id, number: 1, title, body: prepared.xhtml, userId: author });
    await prepared.index(trx, id);
    if (item.restrictions) {
      const users = await Promise.all((item.restrictions.users ?? []).map((n) => userId(trx, n, where)));
      const groups = await Promise.all((item.restrictions.groups ?? []).map((n) => groupId(trx, n, where)));
      await restrictions.replace(trx, id, users, groups);
    }
    c.created++;
  }
  if (explicitIds) await contents.bumpIdSequence(trx);
  });

async function exists(
  trx: Knex,
  id: number | undefined,
  m: { spaceId: number; type: string; title: string; parentId?: number; containerId?: number },
): Promise<boolean> {
  if (id !== undefined) return (await contents.findRow(trx, id)) !== undefined;
  return contents.existsCurrent(trx, m);
}

/** The wiki's parts of the import document: spaces, then content (whose bodies the indexers index). */
export const wikiImports = (indexers: ContentIndexers): ImportPart[] => [spacesImport, contentImport(indexers)];
