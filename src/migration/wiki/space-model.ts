// What a wiki source (a space export file, or a live wiki over REST) hands to the space writer: one space at
// a time, its content in an order where a parent or container comes before what refers to it, and bodies
// read on demand, so that a source whose bodies are large (an export of gigabytes) keeps them out of memory.
// Ids are the source's own; the writer keeps them where they are free and maps (and reports) them where not.

/** A user that content or restrictions name. Imported users get no usable password (the report lists them). */
export interface SourceUser {
  name: string;
  displayName?: string;
  email?: string;
  active?: boolean;
}

/** A group that restrictions name, with the members the source lists (user names). */
export interface SourceGroup {
  name: string;
  members: string[];
}

export interface SourceSpace {
  /** The source's space id, for the report only (our space ids are ours). */
  id?: number;
  key: string;
  name: string;
  description: string;
  /** Content id of the home page, when the source has one. */
  homePageId?: number;
}

export type SourceContentType = 'page' | 'blogpost' | 'comment';

export interface SourceContent {
  /** The source's content id: up to 2^53 - 1 (cloud exports use ids above 2^31). */
  id: number;
  type: SourceContentType;
  /** Pages and blog posts; a comment's title is derived from its container by the writer. */
  title: string;
  /** Parent page of a page. */
  parentId?: number;
  /** Page or blog post of a comment. */
  containerId?: number;
  /** Order among its siblings (the source's `position`), when given. */
  position?: number;
  /** The source's version number of the current version. */
  version: number;
  creator?: string;
  createdAt?: Date;
  updatedAt?: Date;
  /**
   * Its own view restriction: only these may view it. Present with both lists empty: the source restricted it
   * to people it does not name (users it lacks, entries without a name), so nobody here may view it (hidden).
   */
  viewRestrictions?: SourceRestriction;
  /**
   * View restrictions of ancestors that are not imported (a deleted or draft parent, one the source would not
   * hand over): a page placed under a nearer ancestor, or at the top, keeps them (effective-restriction.ts).
   */
  inheritedRestrictions?: SourceRestriction[];
}

/** Users and groups of a view restriction, by name. */
export interface SourceRestriction {
  users: string[];
  groups: string[];
}

/** A content item the source holds and the writer does not import, with the reason (the report lists each). */
export interface SourceItemNote {
  type: SourceContentType;
  id: number;
  title: string;
  reason: string;
}

/** One unit of a wiki import: a space and all its current content. */
export interface SourceSpaceBundle {
  space: SourceSpace;
  /** Parents before children, containers before comments. */
  content: SourceContent[];
  users: SourceUser[];
  groups: SourceGroup[];
  /** The storage-format body of one content item (the current version). */
  body(contentId: number): Promise<string>;
  /** What the source saw and does not import, by kind (for the report): historical versions, attachments,
   *  edit restrictions, drafts, deleted pages, characters XML forbids, macros we do not serve … */
  notImported: Record<string, number>;
  /** Pages, blog posts and comments left out, each with its reason (drafts, deleted content, orphaned comments …). */
  notImportedItems?: SourceItemNote[];
  /**
   * Set when the source could not read this space whole (a live wiki failed part-way): the writer writes
   * nothing of it and reports the space failed with this one-line reason, and the next space goes on.
   */
  failure?: string;
}

/** A wiki source: the spaces it holds (filtered by key when asked), one at a time. */
export interface WikiSource {
  /** Describes the source for progress and the report, e.g. "export space-export.zip" (never credentials). */
  readonly label: string;
  spaces(keys?: readonly string[]): AsyncIterable<SourceSpaceBundle>;
  close(): Promise<void>;
}
