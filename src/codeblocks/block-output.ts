// One download's block before any byte of it is made: its tag and its exact size come from what it is made of
// (the template, the section's values, asciiOnly), so a download can answer 304, refuse a block over
// CODEBLOCK_MAX_MB with the API's 500, or send the `Content-Length`, and only then render it, whole (a small
// block, cached) or chunk by chunk (a large one, streamed). Both read the same pieces (codebox/block-pieces.ts).
import { createHash } from 'node:crypto';
import { EntityTag, hashTag } from '../platform/http/cached-body.ts';
import type { StreamedBody } from '../platform/http/streamed-body.ts';
import { asciiOnlyPieces } from './codebox/ascii-only.ts';
import { blockPieces, joinPieces, utf8Chunks, utf8Size } from './codebox/block-pieces.ts';

/**
 * Changes whenever the rendering's rules change (substitution, asciiOnly), so that a tag made from the same
 * sources never names the bytes of an older rendering.
 */
const RENDERING = 'codeblock-rendering-1';

export interface BlockSource {
  /** The template: the stored one, or the text the remote URL answered. */
  template: string;
  /** The section's values; undefined for the raw template, which is sent as it is. */
  values: ReadonlyMap<string, string> | undefined;
  asciiOnly: boolean;
}

/** The rendering of a block would pass its maximum size (CODEBLOCK_MAX_MB). */
export class BlockTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the rendered block would be larger than ${maxBytes} bytes`);
  }
}

/**
 * A tag of the sources: every string with its length (in UTF-16 units, hashed as UTF-16 so that no two strings
 * hash alike), so that two different sources never hash alike. The rendering is a function of exactly these, so
 * the tag names one body: a strong validator.
 */
function sourceTag({ template, values, asciiOnly }: BlockSource): string {
  const hash = createHash('sha256').update(RENDERING);
  const put = (s: string) => hash.update(`\u0000${s.length}:`).update(s, 'utf16le');
  put(asciiOnly ? 'ascii-only' : 'as-written');
  put(values === undefined ? 'raw' : `section of ${values.size}`);
  put(template);
  for (const [name, value] of values ?? []) {
    put(name);
    put(value);
  }
  return hashTag(hash);
}

export class BlockOutput implements StreamedBody {
  readonly entity: EntityTag;
  /** UTF-8 bytes of the substituted text before asciiOnly (which only removes characters): what CODEBLOCK_MAX_MB bounds. */
  readonly renderedBytes: number;
  #size: number | undefined;

  /** Measures the rendering (no text is made); a section's past `maxBytes` is refused with BlockTooLarge. */
  constructor(
    private readonly source: BlockSource,
    maxBytes: number,
  ) {
    if (source.values === undefined) {
      // The raw template is sent as stored: there is nothing to expand.
      this.renderedBytes = Buffer.byteLength(source.template, 'utf8');
    } else {
      // Stops counting at the bound: a 300 MB expansion costs the time to count 10 MiB of pieces.
      this.renderedBytes = utf8Size(blockPieces(source.template, source.values), maxBytes);
      if (this.renderedBytes > maxBytes) throw new BlockTooLarge(maxBytes);
    }
    this.entity = new EntityTag(sourceTag(source));
  }

  /** The block's pieces as sent (asciiOnly applied). */
  private pieces(): Iterable<string> {
    const { template, values, asciiOnly } = this.source;
    const pieces = values === undefined ? [template] : blockPieces(template, values);
    return asciiOnly ? asciiOnlyPieces(pieces) : pieces;
  }

  /** The exact size of the block as sent: counted from its pieces when asciiOnly removes some characters. */
  get size(): number {
    this.#size ??= this.source.asciiOnly ? utf8Size(this.pieces()) : this.renderedBytes;
    return this.#size;
  }

  /** The whole block (for a small one, kept as a CachedBody). */
  text(): string {
    return joinPieces(this.pieces());
  }

  chunks(): Iterable<Buffer> {
    return utf8Chunks(this.pieces());
  }
}
