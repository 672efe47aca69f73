// The `asciiOnly=true` download filter. The contract keeps ASCII plus ö ä ü ß; the
// notes read that literally as lower-case only (upper-case Ä Ö Ü are unverified), so
// exactly those four survive. All ASCII, control characters included, is kept.

// With the `u` flag a surrogate pair is one code point, so an emoji goes away whole
// and a lone surrogate is removed as well.
const NOT_KEPT = /[^\p{ASCII}öäüß]/gu;

// Text pasted from some systems (macOS file names, NFD sources) spells umlauts as a base
// letter plus U+0308. Composing just these three keeps what the reader saw as ä/ö/ü,
// without the wider effects a full NFC pass would have on other characters.
const DECOMPOSED_UMLAUT = /([aou])\u0308/g;
const COMPOSED: Record<string, string> = { a: 'ä', o: 'ö', u: 'ü' };

export function asciiOnly(text: string): string {
  return text.replace(DECOMPOSED_UMLAUT, (_m, base: string) => COMPOSED[base] ?? base).replace(NOT_KEPT, '');
}

/** Pieces at least this long are filtered once per download and remembered (a value repeated 50,000 times). */
const REMEMBERED_CHARS = 64;

interface Filtered {
  text: string;
  /** A trailing `a`, `o` or `u` held back: the next piece may start with its U+0308. */
  held: string;
}

function filterPiece(held: string, piece: string): Filtered {
  const text = held + piece;
  const last = text.at(-1);
  return last === 'a' || last === 'o' || last === 'u' ? { text: asciiOnly(text.slice(0, -1)), held: last } : { text: asciiOnly(text), held: '' };
}

/**
 * `asciiOnly` over a block's pieces (block-pieces.ts): the pieces it yields, joined, are exactly `asciiOnly` of
 * the pieces joined. Only a base letter before U+0308 spans two pieces, so a trailing `a`, `o` or `u` waits for
 * the next piece; every other character is kept or removed on its own (a surrogate pair split between pieces is
 * removed either way).
 */
export function* asciiOnlyPieces(pieces: Iterable<string>): Generator<string, void, undefined> {
  // By the letter held before the piece: a piece's result depends on it.
  const remembered = new Map<string, Map<string, Filtered>>();
  let held = '';
  for (const piece of pieces) {
    if (piece.length === 0) continue;
    let filtered: Filtered | undefined;
    if (piece.length >= REMEMBERED_CHARS) {
      let byPiece = remembered.get(held);
      if (byPiece === undefined) remembered.set(held, (byPiece = new Map()));
      filtered = byPiece.get(piece);
      if (filtered === undefined) byPiece.set(piece, (filtered = filterPiece(held, piece)));
    } else {
      filtered = filterPiece(held, piece);
    }
    held = filtered.held;
    if (filtered.text.length > 0) yield filtered.text;
  }
  if (held.length > 0) yield held;
}
