import { describe, expect, it } from 'vitest';
import { decodeBlockKey, encodeBlockKey, MAX_BLOCK_KEY_LENGTH } from '../../src/codeblocks/codebox/block-key.ts';

describe('encodeBlockKey', () => {
  it('is standard Base64 of the UTF-8 name, with padding', () => {
    expect(encodeBlockKey('raw')).toBe('cmF3');
    expect(encodeBlockKey('testsystem 1')).toBe('dGVzdHN5c3RlbSAx');
    expect(encodeBlockKey('prod')).toBe('cHJvZA==');
    expect(encodeBlockKey('ä')).toBe('w6Q=');
    expect(encodeBlockKey('?>?')).toBe('Pz4/');
    expect(encodeBlockKey('>>>')).toBe('Pj4+');
  });
});

describe('decodeBlockKey', () => {
  it('decodes padded and unpadded keys', () => {
    expect(decodeBlockKey('cmF3')).toBe('raw');
    expect(decodeBlockKey('cHJvZA==')).toBe('prod');
    expect(decodeBlockKey('cHJvZA')).toBe('prod');
    expect(decodeBlockKey('w6Q=')).toBe('ä');
    expect(decodeBlockKey('w6Q')).toBe('ä');
    expect(decodeBlockKey('dGVzdHN5c3RlbSAx')).toBe('testsystem 1');
  });

  it('tolerates the URL-safe alphabet', () => {
    expect(decodeBlockKey('Pz4_')).toBe('?>?');
    expect(decodeBlockKey('Pj4-')).toBe('>>>');
  });

  it('reads a space as + (unencoded + in a query string) and ignores line breaks', () => {
    expect(decodeBlockKey('Pj4 ')).toBe('>>>');
    expect(decodeBlockKey('cHJv\r\nZA==\n')).toBe('prod');
  });

  it('round-trips names with umlauts, spaces and emoji', () => {
    for (const name of ['Prüfsystem Größe', 'a b', '😀 x', 'raw']) {
      expect(decodeBlockKey(encodeBlockKey(name))).toBe(name);
    }
  });

  it.each([
    ['empty', ''],
    ['only padding', '=='],
    ['bad characters', 'cm*3'],
    ['dot', 'cmF3.'],
    ['padding in the middle', 'cm=F3'],
    ['three pad characters', 'cmF=='],
    ['padding that does not complete a quad', 'cHJvZA='],
    ['impossible length', 'cmF3c'],
    ['invalid UTF-8 (lone 0xff)', '/w=='],
    ['invalid UTF-8 (truncated sequence)', 'w6'],
    ['UTF-8 encoded surrogate', '7aCA'],
  ])('returns undefined for %s', (_label, key) => {
    expect(decodeBlockKey(key)).toBeUndefined();
  });

  it('handles huge keys: decodes up to the limit, refuses beyond it', () => {
    const name = 'x'.repeat(48 * 1024);
    const key = encodeBlockKey(name);
    expect(key.length).toBe(MAX_BLOCK_KEY_LENGTH);
    expect(decodeBlockKey(key)).toBe(name);
    expect(decodeBlockKey(key + 'eHh4')).toBeUndefined();
    expect(decodeBlockKey('A'.repeat(10 * 1024 * 1024))).toBeUndefined();
  });
});
