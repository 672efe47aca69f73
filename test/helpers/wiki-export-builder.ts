// Builds wiki space exports in the format the wiki's "XML export" writes (a zip holding entities.xml, a
// `hibernate-generic` list of objects), from a small description: spaces, a page tree, blog posts, comments,
// view and edit restrictions, users, groups and bodies. Switches reproduce the quirks of real exports: ids above
// 2^31, `]]>` written as `]] >` inside CDATA, characters XML 1.0 forbids, bodies reachable only through their
// back-reference, drafts, deleted content, historical versions, attachments, bodies as escaped text, and
// objects in an order where children come before their parents. The objects are written by `ExportXmlWriter`,
// one string per content item, so a bench can stream an export of any size (test/helpers/zip-writer.ts).
import { writeFileSync } from 'node:fs';
import { ZipFileWriter, type ZipWriterOptions } from './zip-writer.ts';
import { ExportXmlWriter } from './wiki-export-xml.ts';

export { ExportXmlWriter } from './wiki-export-xml.ts';

export type ExportStatus = 'current' | 'draft' | 'deleted';

export interface ExportRestriction {
  users?: string[];
  groups?: string[];
}

export interface ExportComment {
  id: number;
  body: string;
  creator?: string;
  created?: Date;
  modified?: Date;
  status?: ExportStatus;
}

export interface ExportContent {
  id: number;
  title: string;
  body: string;
  version?: number;
  creator?: string;
  created?: Date;
  modified?: Date;
  status?: ExportStatus;
  /** Older versions written as objects whose originalVersion is this one (counted by the reader, not imported). */
  historicalVersions?: number;
  attachments?: number;
  view?: ExportRestriction;
  edit?: ExportRestriction;
  /** Leave the body out of the content's bodyContents collection: found only through BodyContent.content. */
  bodyByBackReferenceOnly?: boolean;
  comments?: ExportComment[];
}

export interface ExportPage extends ExportContent {
  position?: number;
  children?: ExportPage[];
}

export interface ExportSpace {
  id: number;
  key: string;
  name: string;
  description?: string;
  homePageId?: number;
  pages?: ExportPage[];
  blogPosts?: ExportContent[];
}

export interface ExportUser {
  name: string;
  displayName?: string;
  email?: string;
  active?: boolean;
}

export interface ExportGroup {
  name: string;
  members: string[];
}

export interface ExportQuirks {
  /** Every space and content id of the description is written plus BIG_ID_OFFSET (above 2^31, below 2^53). */
  bigIds?: boolean;
  /** How a `]]>` inside a body is written: 'split' (`]]]]><![CDATA[>`, the default) or 'space' (`]] >`). */
  cdataClose?: 'split' | 'space';
  /** Put one U+0001 into every title and one U+000B into every body (XML 1.0 forbids both). */
  forbiddenChars?: boolean;
  /** Every body only through its back-reference (as if each content set bodyByBackReferenceOnly). */
  bodiesByBackReferenceOnly?: boolean;
  /** Bodies as CDATA (the default) or as escaped text. */
  bodyEncoding?: 'cdata' | 'escaped';
  /** Memberships as HibernateMembership with object references (default) or InternalMembership with names. */
  membership?: 'hibernate' | 'internal';
  /** Users and groups as the old `User` and `Group` classes instead of InternalUser and InternalGroup. */
  legacyUserClasses?: boolean;
  /** Add objects of classes the reader does not know (it ignores them). */
  unknownObjects?: boolean;
  /** Write the objects in reverse order: bodies, children and comments before what they belong to. */
  reverseOrder?: boolean;
  /**
   * How content and restrictions name users: 'key' (ConfluenceUserImpl keys, 5.3 and later; the default), 'name'
   * (4.x: no user records, `creatorName` and a permission's `userName`), or 'both' (key and `userName`).
   */
  userReferences?: 'key' | 'name' | 'both';
  /** Users named by content or restrictions whose records the export lacks (no ConfluenceUserImpl, no directory user). */
  missingUsers?: string[];
}

export interface ExportDescription {
  spaces: ExportSpace[];
  users?: ExportUser[];
  groups?: ExportGroup[];
  quirks?: ExportQuirks;
}

/** What `bigIds` adds to every id of the description: ids become about 1.1e12. */
export const BIG_ID_OFFSET = 2 ** 40;

/** The id an export built from `desc` carries for the description's `id`. */
export function exportedId(desc: ExportDescription, id: number): number {
  return desc.quirks?.bigIds ? id + BIG_ID_OFFSET : id;
}

/** The objects of the export, one string each (the header first, the closing tag last). */
export function* exportChunks(desc: ExportDescription): Generator<string> {
  const w = new ExportXmlWriter(desc.quirks ?? {});
  yield w.header();
  const objects = exportObjects(w, desc);
  if (desc.quirks?.reverseOrder) yield* [...objects].reverse();
  else yield* objects;
  yield w.footer();
}

function* exportObjects(w: ExportXmlWriter, desc: ExportDescription): Generator<string> {
  const names = new Set<string>();
  for (const u of desc.users ?? []) names.add(u.name);
  for (const g of desc.groups ?? []) g.members.forEach((m) => names.add(m));
  for (const s of desc.spaces) for (const c of allContent(s)) namedBy(c).forEach((n) => names.add(n));
  const missing = new Set(desc.quirks?.missingUsers ?? []);
  if (desc.quirks?.userReferences !== 'name') {
    for (const name of names) if (!missing.has(name)) yield* w.confluenceUser(name, desc.users?.find((u) => u.name === name));
  }
  // Members of groups that the description does not list as users are directory users all the same.
  const internal = new Map((desc.users ?? []).map((u) => [u.name, u]));
  for (const g of desc.groups ?? []) for (const m of g.members) if (!internal.has(m)) internal.set(m, { name: m });
  for (const u of internal.values()) if (!missing.has(u.name)) yield* w.internalUser(u);
  for (const g of desc.groups ?? []) yield* w.group(g);
  for (const s of desc.spaces) {
    yield* w.space(s);
    const pages = (list: ExportPage[], parent: number | undefined): string[] =>
      list.flatMap((p) => [...w.content('Page', s.id, p, parent), ...pages(p.children ?? [], p.id)]);
    yield* pages(s.pages ?? [], undefined);
    for (const b of s.blogPosts ?? []) yield* w.content('BlogPost', s.id, b, undefined);
  }
  if (desc.quirks?.unknownObjects) yield* w.unknownObjects();
}

function* allContent(s: ExportSpace): Generator<ExportContent> {
  const walk = function* (list: ExportPage[]): Generator<ExportContent> {
    for (const p of list) {
      yield p;
      yield* walk(p.children ?? []);
    }
  };
  yield* walk(s.pages ?? []);
  yield* s.blogPosts ?? [];
}

function namedBy(c: ExportContent): string[] {
  return [
    ...(c.creator ? [c.creator] : []),
    ...(c.view?.users ?? []),
    ...(c.edit?.users ?? []),
    ...(c.comments ?? []).flatMap((m) => (m.creator ? [m.creator] : [])),
  ];
}

/** The whole entities.xml as one string (small exports only). */
export function buildEntitiesXml(desc: ExportDescription): string {
  return [...exportChunks(desc)].join('');
}

/** Writes a bare entities.xml to `file`. */
export function writeEntitiesXml(file: string, desc: ExportDescription): void {
  writeFileSync(file, buildEntitiesXml(desc));
}

export interface ExportZipOptions extends ZipWriterOptions {
  /** How entities.xml is stored: 'deflate' (the default, as the wiki writes it) or 'store'. */
  method?: 'deflate' | 'store';
  /** Leave entities.xml out (a zip that is not a space export). */
  withoutEntities?: boolean;
}

/** Writes a space export zip to `file`: exportDescriptor.properties, entities.xml and a dummy attachment. */
export function writeExportZip(file: string, desc: ExportDescription, opts: ExportZipOptions = {}): void {
  writeExportZipFrom(file, exportChunks(desc), opts);
}

/** Writes a space export zip whose entities.xml is `chunks`, streamed (the bench's way to write 200 MB). */
export function writeExportZipFrom(file: string, chunks: Iterable<string>, opts: ExportZipOptions = {}): void {
  const zip = new ZipFileWriter(file, opts);
  zip.addEntry('exportDescriptor.properties', ['exportType=space\nbackupAttachments=true\n'], { method: 'store' });
  if (!opts.withoutEntities) zip.addEntry('entities.xml', chunks, { method: opts.method ?? 'deflate' });
  zip.addEntry('attachments/1/2/1', ['not an image'], { method: 'deflate' });
  zip.close();
}
