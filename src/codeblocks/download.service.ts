// The download API's rules: who may download (the wiki's one view-permission function), which box and
// block a request names, and the block's text. A download is one indexed code-box lookup and one
// permission query (run together), then the substitution of ONE section; never a page parse.
import type { Knex } from 'knex';
import type { AuthUser } from '../platform/auth/auth-user.ts';
import { CachedBody } from '../platform/http/cached-body.ts';
import type { ViewDecision } from '../wiki/content-access.ts';
import type { StreamedBody } from '../platform/http/streamed-body.ts';
import { BlockOutput, BlockTooLarge } from './block-output.ts';
import { encodeBlockKey } from './codebox/block-key.ts';
import { RAW_KEY, RAW_NAME, type RemoteSource } from './codebox/codebox.ts';
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
  /** Blocks larger than this are streamed, not held or cached (STREAM_MIN_BYTES; smaller in tests). */
  streamMinBytes?: number;
}

/** The default of CODEBLOCK_MAX_MB: far above any real block, far below what a repeated variable can expand to. */
export const DEFAULT_MAX_BLOCK_BYTES = 10 * 1024 * 1024;

/**
 * Blocks whose rendering (before asciiOnly) is larger than 1 MiB are streamed: rendered chunk by chunk as the
 * client takes them and compressed per request, never held whole nor cached. Smaller ones (every real
 * configuration file: the fleets' blocks) are rendered whole once, and cached with their compressed copies.
 */
export const STREAM_MIN_BYTES = 1024 * 1024;

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
   * One block as served (ASCII-only applied): a small one whole, with its ETag (cached for this user); a large one
   * (over STREAM_MIN_BYTES) as a body to stream, its ETag and size known, nothing rendered yet. Or an AppError
   * (403, or 500 with the kind of failure; a block over CODEBLOCK_MAX_MB before anything is rendered).
   */
  async download(user: AuthUser, p: DownloadParams): Promise<CachedBody | StreamedBody> {
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
    const section = found.section;
    if (!isRaw && section === undefined) {
      throw invalidParameter(`the code box has no section named "${p.section}"`);
    }
    const template = await this.templateOf(found);
    const values = isRaw || section === undefined ? undefined : new Map(Object.entries(section.values));
    const output = this.measure(template, values, p.asciiOnly);
    if (output.renderedBytes > (this.deps.streamMinBytes ?? STREAM_MIN_BYTES)) return output;
    const body = new CachedBody(output.text(), output.entity.tag);
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

  /** The block's tag and size, refused (before anything is rendered) when it would pass the maximum size. */
  private measure(template: string, values: ReadonlyMap<string, string> | undefined, asciiOnly: boolean): BlockOutput {
    try {
      return new BlockOutput({ template, values, asciiOnly }, this.deps.maxBlockBytes ?? DEFAULT_MAX_BLOCK_BYTES);
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
