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
