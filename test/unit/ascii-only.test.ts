import { describe, expect, it } from 'vitest';
import { asciiOnly } from '../../src/codeblocks/codebox/ascii-only.ts';

describe('asciiOnly', () => {
  it('keeps all ASCII, control characters included', () => {
    const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('');
    expect(asciiOnly(ascii)).toBe(ascii);
  });

  it('keeps lower-case ö ä ü and ß, drops the upper-case umlauts', () => {
    expect(asciiOnly('Größe: Äpfel, Öl, Übel; süß, hätte')).toBe('Größe: pfel, l, bel; süß, hätte');
  });

  it('drops other non-ASCII characters', () => {
    expect(asciiOnly('café – naïve “quoted” €5\u00a0x\u200by')).toBe('caf  nave quoted 5xy');
  });

  it('removes an emoji (a surrogate pair) entirely, and lone surrogates too', () => {
    expect(asciiOnly('a😀b👍🏽c')).toBe('abc');
    expect(asciiOnly('a\ud83db\ude00c')).toBe('abc');
    expect(asciiOnly('😀')).toBe('');
  });

  it('composes decomposed lower-case umlauts instead of stripping their marks', () => {
    expect(asciiOnly('Gro\u0308\u00dfe ha\u0308tte su\u0308\u00df A\u0308')).toBe('Größe hätte süß A');
  });

  it('leaves an empty string empty', () => {
    expect(asciiOnly('')).toBe('');
  });
});
