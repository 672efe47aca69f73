import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { wikiWrite } from './wiki-write.ts';
import { isAdministrator, type AuthUser } from '../platform/auth/auth-user.ts';
import { decideView, listViewable, type ContentType, type ListFilter } from './content-access.ts';
import { contentRepository as contents, type ContentRecord, type ContentSummary, type ContentSummaryWithContainer } from './content.repository.ts';
import { spacesRepository as spaces, type SpaceRow } from './spaces.repository.ts';
import { prepareStorage } from './content-storage.ts';
import type { ContentIndexers } from './content-indexer.ts';
import { findMacroById } from './storage/storage-format.ts';
import type { CreateContentBody, UpdateContentBody } from './wiki.schemas.ts';
import { pageOf, type Page } from './paging.ts';
import {
  commentNeedsContainer,
  containerNotFound,
  contentNotFound,
  macroNotFound,
  mayNotChangeContent,
  mayNotCreateContent,
  noContainerAllowed,
  onlyPagesHaveAncestors,
  parentNotFound,
  spaceNotFound,
  staleVersion,
  titleRequired,
  typeCannotChange,
  versionNotFound,
} from './wiki.errors.ts';

/** What the content JSON is built from; `ancestors` and `container` only when asked for. */
export interface ContentView {
  record: ContentRecord;
  ancestors?: ContentSummary[];
  container?: ContentSummary;
}

/** A comment's title: `Re: ` and its container's title, cut to the column's 255 characters. */
export const commentTitle = (containerTitle: string) => `Re: ${containerTitle}`.slice(0, 255);

/** Administrators, or holders of `create` on the space for this content type, may write. */
export async function mayWrite(q: Knex, user: AuthUser, spaceId: number, type: ContentType): Promise<boolean> {
  return isAdministrator(user) || spaces.canCreate(q, user.id, spaceId, type);
}

/**
 * Content rules: who may read and write, versions, the trash, and the code-box index that every save
 * rewrites in the same transaction. Content the caller may not view answers 404, like content that does
 * not exist, so that ids reveal nothing.
 */
export class ContentService {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
    private readonly indexers: ContentIndexers,
  ) {}

  /** The content if the caller may view it (404 otherwise), with the optional parts requested. */
  async get(user: AuthUser, id: number, expand: { ancestors: boolean; container: boolean }): Promise<ContentView> {
    const q = this.knex;
    if ((await decideView(q, user, id)).state !== 'allowed') throw contentNotFound(id);
    return this.load(q, id, expand);
  }

  /**
   * One page of the content the caller may view, by id (the listing form of decideView's rule). Ancestors
   * and containers are read per listed item, only when asked for (at most `limit` items).
   */
  async list(user: AuthUser, filter: ListFilter, start: number, limit: number, expand: { ancestors: boolean; container: boolean }): Promise<Page<ContentView>> {
    const q = this.knex;
    const ids = await listViewable(q, user, filter, start, limit);
    return this.views(q, pageOf(ids, start, limit), expand);
  }

  /**
   * As `list`, titles only (no bodies, no versions): one page of the content the user may view, with each
   * comment's container. For listings of many items, such as the content an add-on's index narrows to.
   */
  async summaries(user: AuthUser, filter: ListFilter, start: number, limit: number): Promise<Page<ContentSummaryWithContainer>> {
    const q = this.knex;
    const page = pageOf(await listViewable(q, user, filter, start, limit), start, limit);
    return { ...page, results: await contents.findSummaries(q, page.results) };
  }

  /**
   * One page of the current comments of a page or blog post the caller may view (404 otherwise), by id: a
   * comment is viewable exactly when its container is (the view rule), so one decision covers them all.
   */
  async comments(user: AuthUser, containerId: number, start: number, limit: number, expand: { ancestors: boolean; container: boolean }): Promise<Page<ContentView>> {
    const q = this.knex;
    if ((await decideView(q, user, containerId)).state !== 'allowed') throw contentNotFound(containerId);
    const ids = await contents.commentIds(q, containerId, start, limit);
    return this.views(q, pageOf(ids, start, limit), expand);
  }

  /** The views of a page of ids, with the optional parts asked for. */
  private async views(q: Knex, page: Page<number>, expand: { ancestors: boolean; container: boolean }): Promise<Page<ContentView>> {
    const records = await contents.findRecords(q, page.results);
    const views: ContentView[] = [];
    for (const record of records) {
      const view: ContentView = { record };
      if (expand.ancestors) view.ancestors = record.type === 'page' ? await contents.ancestors(q, record.id) : [];
      if (expand.container && record.container_id !== null) view.container = await contents.summary(q, record.container_id);
      views.push(view);
    }
    return { ...page, results: views };
  }

  /** The content JSON's data without a view check: for the answer to a write the caller just made. */
  private async load(q: Knex, id: number, expand: { ancestors: boolean; container: boolean }): Promise<ContentView> {
    const record = await contents.findRecord(q, id);
    if (!record) throw contentNotFound(id);
    const view: ContentView = { record };
    if (expand.ancestors) view.ancestors = record.type === 'page' ? await contents.ancestors(q, id) : [];
    if (expand.container && record.container_id !== null) view.container = await contents.summary(q, record.container_id);
    return view;
  }

  async create(user: AuthUser, body: CreateContentBody): Promise<ContentView> {
    return wikiWrite(this.knex, this.changes, async (trx) => {
      const space = await spaces.findByKey(trx, body.space.key);
      if (!space) throw spaceNotFound(body.space.key);
      if (!(await mayWrite(trx, user, space.id, body.type))) {
        // A space the caller cannot read answers exactly as an unknown key, so keys cannot be probed.
        if (!(await spaces.canRead(trx, user.id, space.id))) throw spaceNotFound(body.space.key);
        throw mayNotCreateContent(body.type, space.key);
      }
      const place = await this.placement(trx, user, space, body);
      const prepared = prepareStorage(body.body.storage.value, this.indexers);
      const id = await contents.insert(trx, { ...place, type: body.type, spaceId: space.id, body: prepared.xhtml, userId: user.id });
      await contents.insertVersion(trx, { contentId: id, number: 1, title: place.title, body: prepared.xhtml, userId: user.id });
      await prepared.index(trx, id);
      // An administrator may create where it cannot read (no implicit view), so no view check here.
      return this.load(trx, id, { ancestors: true, container: true });
    });
  }

  /** Parent, container and title of new content; referenced content must be viewable and in the space. */
  private async placement(trx: Knex, user: AuthUser, space: SpaceRow, body: CreateContentBody) {
    const refOk = async (refId: number, types: ContentType[]) => {
      const d = await decideView(trx, user, refId);
      const row = d.state === 'allowed' ? await contents.findRow(trx, refId) : undefined;
      return row && types.includes(row.type) && row.space_id === space.id ? row : undefined;
    };
    if (body.type === 'comment') {
      if (!body.container) throw commentNeedsContainer();
      const container = await refOk(body.container.id, ['page', 'blogpost']);
      if (!container) throw containerNotFound(body.container.id, space.key);
      return { title: commentTitle(container.title), parentId: null, containerId: container.id };
    }
    if (!body.title) throw titleRequired();
    if (body.container) throw noContainerAllowed(body.type);
    const parentRef = body.ancestors?.at(-1);
    if (parentRef === undefined) return { title: body.title, parentId: null, containerId: null };
    if (body.type !== 'page') throw onlyPagesHaveAncestors();
    const parent = await refOk(parentRef.id, ['page']);
    if (!parent) throw parentNotFound(parentRef.id, space.key);
    return { title: body.title, parentId: parent.id, containerId: null };
  }

  async update(user: AuthUser, id: number, body: UpdateContentBody): Promise<ContentView> {
    return wikiWrite(this.knex, this.changes, async (trx) => {
      const row = await this.writable(trx, user, id);
      if (body.type !== undefined && body.type !== row.type) {
        throw typeCannotChange(id, row.type, body.type);
      }
      if (body.version.number !== row.version + 1) {
        throw staleVersion(row.version);
      }
      // Comments keep the title derived from their container.
      const title = row.type === 'comment' ? row.title : (body.title ?? row.title);
      const prepared = body.body ? prepareStorage(body.body.storage.value, this.indexers) : undefined;
      const xhtml = prepared?.xhtml ?? row.body;
      if (!(await contents.updateIfVersion(trx, id, row.version, { title, body: xhtml }))) {
        throw staleVersion(row.version + 1);
      }
      await contents.insertVersion(trx, { contentId: id, number: row.version + 1, title, body: xhtml, userId: user.id });
      if (prepared) await prepared.index(trx, id);
      return this.load(trx, id, { ancestors: true, container: true });
    });
  }

  /** Moves the content, with its comments, to the trash. */
  async trash(user: AuthUser, id: number): Promise<void> {
    await wikiWrite(this.knex, this.changes, async (trx) => {
      await this.writable(trx, user, id);
      await contents.trash(trx, id);
    });
  }

  /** The content row, if the caller may view (else 404) and write (else 403) it. */
  async writable(trx: Knex, user: AuthUser, id: number) {
    if ((await decideView(trx, user, id)).state !== 'allowed') throw contentNotFound(id);
    const row = await contents.findRow(trx, id);
    if (!row) throw contentNotFound(id);
    if (!(await mayWrite(trx, user, row.space_id, row.type))) throw mayNotChangeContent(id);
    return row;
  }

  /** A macro of one version (`0` = the current one) of viewable content, found by its id. */
  async macro(user: AuthUser, id: number, version: number, macroId: string) {
    if ((await decideView(this.knex, user, id)).state !== 'allowed') throw contentNotFound(id);
    const xhtml = version === 0 ? (await contents.findRow(this.knex, id))?.body : await contents.versionBody(this.knex, id, version);
    if (xhtml === undefined) throw versionNotFound(version, id);
    const macro = findMacroById(xhtml, macroId);
    if (!macro) throw macroNotFound(macroId, version, id);
    return { name: macro.name, body: macro.body ?? '', parameters: { ...macro.parameters } };
  }
}
