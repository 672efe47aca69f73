// The first pass over a space export: every object is looked at once, in file order (which is no order: a body
// may come before its page, a child before its parent), and only small facts are kept (ids, titles, relations,
// principals, restriction entries), while bodies go to the spool. Everything that needs two objects together is
// resolved afterwards, in space-assembly.ts.
import type { BodySpool, SpoolSlice } from './body-spool.ts';
import { WikiExportError } from './export-error.ts';
import { ExportPeople } from './export-people.ts';
import type { ExportObject, ObjectRef, PropValue } from './object-reader.ts';

export type ContentKind = 'page' | 'blogpost' | 'comment' | 'description';

export interface ContentMeta {
  kind: ContentKind;
  id: number;
  title: string;
  spaceId?: number;
  parentId?: number;
  containerId?: number;
  position?: number;
  version: number;
  creatorKey?: string;
  /** The creator by name (4.x exports, which have no user keys). */
  creatorName?: string;
  created?: number;
  updated?: number;
  status: string;
  bodyIds?: number[];
  dropped: number;
}

export interface SpaceMeta {
  id: number;
  key: string;
  name: string;
  descriptionId?: number;
  homePageId?: number;
}

export interface BodyMeta extends SpoolSlice {
  storage: boolean;
}

export interface PermissionMeta {
  type: string;
  setId?: number;
  userKey?: string;
  /** The user by name: 4.x exports (before user keys) name users so, some later ones with the key as well. */
  userName?: string;
  groupName?: string;
  id: number;
}

// A Map, not an object literal: a class named `constructor` must not find Object.prototype's.
const CONTENT_KINDS = new Map<string, ContentKind>([
  ['Page', 'page'],
  ['BlogPost', 'blogpost'],
  ['Comment', 'comment'],
  ['SpaceDescription', 'description'],
]);

const SAFE = /^\d{1,16}$/;

export function toId(text: string, what: string): number {
  const n = Number(text);
  if (!SAFE.test(text) || !Number.isSafeInteger(n)) {
    throw new WikiExportError('bad-value', `${what} has the id "${text.slice(0, 40)}", not a whole number below 2^53`);
  }
  return n;
}

/** Dates as the wiki writes them (`2024-01-02 10:11:12.123`, UTC), in milliseconds. */
function toTime(v: PropValue | undefined): number | undefined {
  if (typeof v !== 'string' || !v) return undefined;
  const t = Date.parse(`${v.trim().replace(' ', 'T')}Z`);
  return Number.isNaN(t) ? undefined : t;
}

const str = (v: PropValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const refOf = (v: PropValue | undefined): ObjectRef | undefined => (typeof v === 'object' && v.id ? v : undefined);
const int = (v: PropValue | undefined): number | undefined => {
  const s = str(v)?.trim();
  return s && /^-?\d+$/.test(s) ? Number(s) : undefined;
};

export class ExportIndex {
  readonly spaces = new Map<number, SpaceMeta>();
  readonly content = new Map<number, ContentMeta>();
  /** Historical versions: their ids (to the id of their current version), and how many each current one has. */
  readonly historical = new Map<number, number>();
  readonly historyOf = new Map<number, number>();
  /** Bodies by the content that their back-reference names, and (when they have none) by their own id. */
  readonly bodyByContent = new Map<number, BodyMeta>();
  readonly bodyById = new Map<number, BodyMeta>();
  readonly attachmentsOn = new Map<number, number>();
  readonly permissionSets = new Map<number, { type: string; contentId?: number }>();
  readonly setOfPermission = new Map<number, number>();
  readonly permissions: PermissionMeta[] = [];
  readonly people = new ExportPeople();
  /** Forbidden characters dropped in objects that belong to no content (users, groups, spaces). */
  droppedElsewhere = 0;
  objects = 0;

  constructor(private readonly spool: BodySpool) {}

  add(o: ExportObject): void {
    this.objects++;
    const p = o.props;
    const kind = CONTENT_KINDS.get(o.cls);
    if (kind) return this.addContent(kind, o);
    if (this.people.add(o)) {
      this.droppedElsewhere += o.dropped;
      return;
    }
    switch (o.cls) {
      case 'BodyContent':
        return this.addBody(o);
      case 'Space': {
        const id = toId(o.id, 'a Space');
        const desc = refOf(p.get('description'));
        const home = refOf(p.get('homePage'));
        this.spaces.set(id, {
          id,
          key: str(p.get('key')) ?? '',
          name: str(p.get('name')) ?? '',
          descriptionId: desc ? toId(desc.id, 'a space description') : undefined,
          homePageId: home ? toId(home.id, 'a home page') : undefined,
        });
        break;
      }
      case 'Attachment': {
        const container = refOf(p.get('containerContent')) ?? refOf(p.get('content'));
        const original = refOf(p.get('originalVersion'));
        const on = original ? undefined : container && toId(container.id, 'an attachment\'s page');
        if (on !== undefined) this.attachmentsOn.set(on, (this.attachmentsOn.get(on) ?? 0) + 1);
        else if (original) this.countHistory(toId(original.id, 'an attachment\'s original'));
        break;
      }
      case 'ContentPermissionSet': {
        const owner = refOf(p.get('owningContent'));
        const id = toId(o.id, 'a ContentPermissionSet');
        this.permissionSets.set(id, { type: str(p.get('type')) ?? '', contentId: owner && toId(owner.id, 'a restricted page') });
        for (const e of o.collections.get('contentPermissions') ?? []) this.setOfPermission.set(toId(e.id, 'a ContentPermission'), id);
        break;
      }
      case 'ContentPermission': {
        const set = refOf(p.get('owningSet'));
        this.permissions.push({
          id: toId(o.id, 'a ContentPermission'),
          type: str(p.get('type')) ?? '',
          setId: set && toId(set.id, 'a ContentPermissionSet'),
          userKey: refOf(p.get('userSubject'))?.id,
          userName: str(p.get('userName'))?.trim() || undefined,
          groupName: str(p.get('groupName')) || undefined,
        });
        break;
      }
      default:
        break; // classes a space export holds that we do not import (labels, links, settings …)
    }
    this.droppedElsewhere += o.dropped;
  }

  private countHistory(originalId: number): void {
    this.historyOf.set(originalId, (this.historyOf.get(originalId) ?? 0) + 1);
  }

  private addContent(kind: ContentKind, o: ExportObject): void {
    const p = o.props;
    const id = toId(o.id, `a ${o.cls}`);
    const original = refOf(p.get('originalVersion'));
    const status = (str(p.get('contentStatus')) ?? 'current').trim() || 'current';
    if (original || status === 'historical') {
      const current = original ? toId(original.id, `a ${o.cls}'s original version`) : id;
      this.historical.set(id, current);
      this.bodyByContent.delete(id);
      if (original) this.countHistory(current);
      this.droppedIn(current, o.dropped);
      return;
    }
    const ref = (name: string) => {
      const r = refOf(p.get(name));
      return r ? toId(r.id, `a ${o.cls}'s ${name}`) : undefined;
    };
    this.content.set(id, {
      kind,
      id,
      title: str(p.get('title')) ?? '',
      spaceId: ref('space'),
      parentId: kind === 'page' ? ref('parent') : undefined,
      containerId: kind === 'comment' ? (ref('containerContent') ?? ref('owner')) : undefined,
      position: int(p.get('position')),
      version: int(p.get('version')) ?? 1,
      creatorKey: refOf(p.get('creator'))?.id,
      creatorName: str(p.get('creatorName'))?.trim() || undefined,
      created: toTime(p.get('creationDate')),
      updated: toTime(p.get('lastModificationDate')),
      status,
      bodyIds: o.collections.get('bodyContents')?.map((e) => toId(e.id, 'a BodyContent')),
      dropped: o.dropped,
    });
  }

  private addBody(o: ExportObject): void {
    const owner = refOf(o.props.get('content'));
    const ownerId = owner ? toId(owner.id, 'a BodyContent\'s content') : undefined;
    const currentOfOld = ownerId === undefined ? undefined : this.historical.get(ownerId);
    if (currentOfOld !== undefined) {
      this.droppedIn(currentOfOld, o.dropped);
      return; // an old version's body is not imported
    }
    const bodyType = str(o.props.get('bodyType'))?.trim();
    const body: BodyMeta = {
      ...this.spool.append(str(o.props.get('body')) ?? ''),
      storage: !bodyType || bodyType === '2' || owner?.cls === 'SpaceDescription',
    };
    if (ownerId !== undefined) {
      const had = this.bodyByContent.get(ownerId);
      if (!had || (!had.storage && body.storage)) this.bodyByContent.set(ownerId, body);
      if (o.dropped) this.droppedIn(ownerId, o.dropped);
    } else {
      this.bodyById.set(toId(o.id, 'a BodyContent'), body);
      this.droppedElsewhere += o.dropped;
    }
  }

  /** Forbidden characters found in a body or an older version count for the content they belong to. */
  readonly droppedInBody = new Map<number, number>();
  private droppedIn(contentId: number, n: number): void {
    if (n > 0) this.droppedInBody.set(contentId, (this.droppedInBody.get(contentId) ?? 0) + n);
  }

  /** After the last object: what was found under an old version's id before that version was met moves to
   *  its current version. */
  finish(): void {
    for (const [id, n] of this.droppedInBody) {
      const current = this.historical.get(id);
      if (current !== undefined && current !== id) {
        this.droppedInBody.delete(id);
        this.droppedIn(current, n);
      }
      if (current !== undefined) this.bodyByContent.delete(id);
    }
    for (const id of this.historical.keys()) this.bodyByContent.delete(id);
  }
}
