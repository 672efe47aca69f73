// The download API's rules: who may download (the wiki's one view-permission function), which box and
// block a request names, and the block's text. A download is one indexed code-box lookup and one
// permission query (run together), then the substitution of ONE section; never a page parse.
import type { Knex } from 'knex';
import type { AuthUser } from '../platform/auth/auth-user.ts';
import { CachedBody } from '../platform/http/cached-body.ts';
import type { ViewDecision } from '../wiki/content-access.ts';
import { asciiOnly } from './codebox/ascii-only.ts';
import { encodeBlockKey } from './codebox/block-key.ts';
import { BlockTooLarge, RAW_KEY, RAW_NAME, substituteBounded, type RemoteSource } from './codebox/codebox.ts';
import { CodeboxError } from './codebox/codebox-errors.ts';
import type { BoxForDownload, CodeboxReader } from './codebox.repository.ts';
import { fetchMacroFailed, fromCodeboxError, invalidParameter, noReadPermission, codeblocksError } from './download.errors.ts';
import type { DownloadParams, ListParams } from './download.schemas.ts';

export type DecideView = (q: Knex, user: AuthUser | undefined, contentId: number) => Promise<ViewDecision>;

export interface TemplateSource {
  fetch(source: RemoteSource): Promise<string>;
}

export type ViewableContent = Extract<ViewDecision, { state: 'allowed' }>['content'];

export interface BoxListing {
  content: ViewableContent;
  macroId: string;
  /** In document order, the raw template last. */
  blocks: { name: string; key: string }[];
}

/** Rendered bodies (block texts, list bodies) by user and request, with their ETags (see download-cache.ts). */
export interface BlockTextCache {
  get(key: string): CachedBody | undefined;
  /** `since`: a `stamp()` taken before the body was read; a body read before a clear is not kept. */
  set(key: string, body: CachedBody, since?: number): CachedBody;
  stamp(): number;
  /** `get` without counting the lookup (see BoundedCache.peekLive); `countHit` counts it once answered. */
  peekLive(key: string): CachedBody | undefined;
  countHit(): void;
}

export interface CodeblocksDeps {
  knex: Knex;
  decideView: DecideView;
  codeboxes: CodeboxReader;
  remote: TemplateSource;
  blockTexts?: BlockTextCache;
  /** The largest block a download renders (CODEBLOCK_MAX_MB); beyond it the API's 500 MACRO_BODY_PROCESSING. */
  maxBlockBytes?: number;
}

/** The default of CODEBLOCK_MAX_MB: far above any real block, far below what a repeated variable can expand to. */
export const DEFAULT_MAX_BLOCK_BYTES = 10 * 1024 * 1024;

const blockTextKey = (user: AuthUser, p: DownloadParams) =>
  `${user.id}\u0000${p.contentId}\u0000${p.macroId}\u0000${p.section}\u0000${p.asciiOnly ? 'a' : ''}`;

export class CodeblocksService {
  constructor(private readonly deps: CodeblocksDeps) {}

  /**
   * The text of a block this user fetched shortly before (a fleet at boot), without I/O; undefined when it
   * must be read. The entry was stored only after this user's view check passed, and any wiki or directory
   * change drops it.
   */
  cachedDownload(user: AuthUser, p: DownloadParams): CachedBody | undefined {
    return this.deps.blockTexts?.get(blockTextKey(user, p));
  }

  /**
   * As cachedDownload, for the fast path (download-fast-path.ts), which answers only when all its lookups
   * hit: found without counting the lookup; `confirm()` counts the hit, as cachedDownload would have.
   */
  peekCachedDownload(user: AuthUser, p: DownloadParams): { body: CachedBody; confirm(): void } | undefined {
    const cache = this.deps.blockTexts;
    const body = cache?.peekLive(blockTextKey(user, p));
    return body && cache && { body, confirm: () => cache.countHit() };
  }

  /**
   * The text of one block as served (ASCII-only applied), hashed once for its ETag; or an AppError (403, or
   * 500 with the kind of failure).
   */
  async download(user: AuthUser, p: DownloadParams): Promise<CachedBody> {
    const known = this.cachedDownload(user, p);
    if (known !== undefined) return known;
    const since = this.deps.blockTexts?.stamp();
    const isRaw = p.section === RAW_NAME;
    const [decision, box] = await Promise.all([
      this.deps.decideView(this.deps.knex, user, p.contentId),
      this.deps.codeboxes.findForDownload(p.contentId, p.macroId, isRaw ? undefined : p.section),
    ]);
    this.assertViewable(decision, p.contentId);
    const found = this.usable(box, p);
    if (!isRaw && found.section === undefined) {
      throw invalidParameter(`the code box has no section named "${p.section}"`);
    }
    const template = await this.templateOf(found);
    const text = isRaw || found.section === undefined ? template : this.render(template, found.section.values);
    const body = new CachedBody(p.asciiOnly ? asciiOnly(text) : text);
    // Remote templates are fetched every time (an edit of the remote file shows at once).
    if (found.kind !== 'advanced-remote-codeblock-macro') this.deps.blockTexts?.set(blockTextKey(user, p), body, since);
    return body;
  }

  /** The content record and the blocks of one box. Remote templates are not fetched for a list. */
  async list(user: AuthUser, p: ListParams): Promise<BoxListing> {
    const [decision, box] = await Promise.all([
      this.deps.decideView(this.deps.knex, user, p.contentId),
      this.deps.codeboxes.findForList(p.contentId, p.macroId),
    ]);
    const content = this.assertViewable(decision, p.contentId);
    const found = this.usable(box, p);
    // A section named `raw` shares the raw template's key; the raw template wins it (as in buildBlocks).
    const blocks = found.sectionNames.filter((n) => n !== RAW_NAME).map((name) => ({ name, key: encodeBlockKey(name) }));
    blocks.push({ name: RAW_NAME, key: RAW_KEY });
    return { content, macroId: p.macroId, blocks };
  }

  /** The section's block, refused (and stopped) once it passes the maximum size. */
  private render(template: string, values: Readonly<Record<string, string>>): string {
    const max = this.deps.maxBlockBytes ?? DEFAULT_MAX_BLOCK_BYTES;
    try {
      return substituteBounded(template, new Map(Object.entries(values)), max);
    } catch (err) {
      if (err instanceof BlockTooLarge) throw codeblocksError('MACRO_BODY_PROCESSING', err.message);
      throw err;
    }
  }

  private assertViewable(decision: ViewDecision, contentId: number): ViewableContent {
    switch (decision.state) {
      case 'allowed':
        return decision.content;
      case 'denied':
        throw noReadPermission(contentId);
      case 'trashed':
        throw fetchMacroFailed(`content ${contentId} is in the trash`);
      case 'missing':
        throw fetchMacroFailed(`content ${contentId} does not exist`);
    }
  }

  private usable<B extends { errorKind: BoxForDownload['errorKind'] }>(box: B | undefined, p: ListParams): B {
    if (box === undefined) throw fetchMacroFailed(`content ${p.contentId} has no code box with macro id ${p.macroId}`);
    if (box.errorKind !== undefined) throw fromCodeboxError(new CodeboxError(box.errorKind));
    return box;
  }

  private async templateOf(box: BoxForDownload): Promise<string> {
    if (box.kind !== 'advanced-remote-codeblock-macro') {
      if (box.template === null) throw codeblocksError('MACRO_BODY_PROCESSING', 'the code box has no stored template');
      return box.template;
    }
    try {
      return await this.deps.remote.fetch({
        url: box.parameters['remotefileurl'],
        user: box.parameters['remotefilehttpuser'],
        password: box.parameters['remotefilehttppassword'],
      });
    } catch (err) {
      if (err instanceof CodeboxError) throw fromCodeboxError(err);
      throw err;
    }
  }
}
