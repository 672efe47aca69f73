// The one rendering of a block: the pieces it is made of, in order (the template's text between variables, then
// each known variable's value). A small block joins them into a string; a large one is measured from them before
// a byte is sent, then encoded from them chunk by chunk as the client takes it (docs/security.md, "Unbounded
// output"). Both read the same pieces, so the streamed bytes are the bytes of the joined text.

// `${name}`: any name without braces. Braces cannot be part of a usable key, and excluding
// `{` lets `${a${b}` still substitute the inner `${b}`.
const VARIABLE = /\$\{([^{}]+)\}/g;

/**
 * The pieces of `template` with `values` substituted, in one pass: substituted values are never expanded again;
 * an unknown name stays, as part of the next piece of text. Empty pieces may occur.
 */
export function* blockPieces(template: string, values: ReadonlyMap<string, string>): Generator<string, void, undefined> {
  let cursor = 0;
  for (const m of template.matchAll(VARIABLE)) {
    const value = values.get(m[1]!);
    if (value === undefined) continue;
    yield template.slice(cursor, m.index);
    yield value;
    cursor = m.index + m[0].length;
  }
  yield template.slice(cursor);
}

/** The template with the values substituted (see blockPieces). */
export function substitute(template: string, values: ReadonlyMap<string, string>): string {
  return joinPieces(blockPieces(template, values));
}

export function joinPieces(pieces: Iterable<string>): string {
  let text = '';
  for (const piece of pieces) text += piece;
  return text;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Pieces at least this long are measured once per count (a value repeated thousands of times). */
const REMEMBERED_CHARS = 4096;

/**
 * The UTF-8 size of the pieces joined (what `Buffer.byteLength(joinPieces(pieces))` gives), without joining them;
 * stops as soon as it passes `stopAbove` (answering the partial sum, which is above it). A surrogate pair split
 * between two pieces is one 4-byte character of the joined text, not two replacement characters of 3 bytes. A
 * long piece seen again (the same value) is not measured again, so counting a block costs about its template.
 */
export function utf8Size(pieces: Iterable<string>, stopAbove = Infinity): number {
  const remembered = new Map<string, number>();
  let total = 0;
  let endsHigh = false;
  for (const piece of pieces) {
    if (piece.length === 0) continue;
    let bytes = piece.length >= REMEMBERED_CHARS ? remembered.get(piece) : undefined;
    if (bytes === undefined) {
      bytes = Buffer.byteLength(piece, 'utf8');
      if (piece.length >= REMEMBERED_CHARS) remembered.set(piece, bytes);
    }
    total += bytes;
    if (endsHigh && isLowSurrogate(piece.charCodeAt(0))) total -= 2;
    endsHigh = isHighSurrogate(piece.charCodeAt(piece.length - 1));
    if (total > stopAbove) return total;
  }
  return total;
}

/** Characters per chunk of a streamed block: 64 Ki characters, 64 to 256 KiB of UTF-8. */
export const CHUNK_CHARS = 64 * 1024;

/**
 * The UTF-8 bytes of the pieces joined, in chunks of about `chunkChars` characters (a longer piece is cut, so a
 * long value never makes one large buffer). A chunk never ends between a high surrogate and what follows it, so
 * the chunks together are exactly `Buffer.from(joinPieces(pieces))`.
 */
export function* utf8Chunks(pieces: Iterable<string>, chunkChars = CHUNK_CHARS): Generator<Buffer, void, undefined> {
  let pending = '';
  for (const piece of pieces) {
    pending += piece;
    while (pending.length >= chunkChars) {
      const cut = isHighSurrogate(pending.charCodeAt(chunkChars - 1)) ? chunkChars - 1 : chunkChars;
      yield Buffer.from(pending.slice(0, cut), 'utf8');
      pending = pending.slice(cut);
    }
  }
  if (pending.length > 0) yield Buffer.from(pending, 'utf8');
}
