import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockOutput, BlockTooLarge, type BlockSource } from '../../src/codeblocks/block-output.ts';
import { asciiOnly, asciiOnlyPieces } from '../../src/codeblocks/codebox/ascii-only.ts';
import { blockPieces, joinPieces, substitute, utf8Chunks, utf8Size } from '../../src/codeblocks/codebox/block-pieces.ts';

// The one rendering of a block (issue 44, finding 5): measured from its pieces before a byte is made, refused past
// the bound without building the rest, and the same bytes whether joined (a small block) or streamed chunk by
// chunk (a large one). The oracle is the rendering as it was before pieces: one `replace` over the template, then
// `asciiOnly` over the whole text.
const oracle = (tpl: string, values: ReadonlyMap<string, string> | undefined, ascii: boolean) => {
  const text = values === undefined ? tpl : tpl.replace(/\$\{([^{}]+)\}/g, (whole, name: string) => values.get(name) ?? whole);
  return ascii ? asciiOnly(text) : text;
};
const streamed = (out: BlockOutput) => Buffer.concat([...out.chunks()]);

describe('the rendering of a block', () => {
  const values = new Map([
    ['a', 'one'],
    ['b', 'zwei ä'],
    ['emoji', '🙂'],
    ['empty', ''],
  ]);
  const templates = [
    '',
    'no variables',
    '${a}',
    'x${a}y${b}z',
    '${unknown} and ${a}',
    '${a${b}',
    '$${a}}',
    '${}${ a }${emoji}${empty}end',
    'line\r\n${b}\r\n',
    '${a}'.repeat(1000),
  ];

  it('substitutes, measures and streams byte for byte what one replace over the template gives', () => {
    for (const tpl of templates) {
      expect(substitute(tpl, values)).toBe(oracle(tpl, values, false));
      for (const ascii of [false, true]) {
        const out = new BlockOutput({ template: tpl, values, asciiOnly: ascii }, 1_000_000);
        const expected = Buffer.from(oracle(tpl, values, ascii), 'utf8');
        expect(out.text()).toBe(oracle(tpl, values, ascii));
        expect(out.size).toBe(expected.length);
        expect(streamed(out).equals(expected)).toBe(true);
      }
    }
  });

  // Characters chosen to meet at piece and chunk boundaries: a base letter and its U+0308 in different pieces, the
  // halves of a surrogate pair in different pieces, variables whose name or braces are cut.
  const char = fc.constantFrom('a', 'o', 'u', 'x', '\u0308', '\ud83d', '\ude42', '🙂', 'é', 'ß', '$', '{', '}', '\n', 'A\u0308');
  const text = (maxLength: number) => fc.array(char, { maxLength }).map((cs) => cs.join(''));
  const source = fc.record({
    template: fc.array(fc.oneof(text(6), fc.constantFrom('${v}', '${w}', '${x}', '${v')), { maxLength: 12 }).map((ps) => ps.join('')),
    values: fc.option(fc.dictionary(fc.constantFrom('v', 'w', 'z'), text(8)).map((d) => new Map(Object.entries(d))), { nil: undefined }),
    asciiOnly: fc.boolean(),
  });

  it('gives the same bytes and size as the whole text for any template, values and chunk size (property)', () => {
    fc.assert(
      fc.property(source, fc.integer({ min: 2, max: 9 }), (src: BlockSource, chunkChars) => {
        const expected = oracle(src.template, src.values, src.asciiOnly);
        const out = new BlockOutput(src, 1_000_000);
        expect(out.text()).toBe(expected);
        expect(out.size).toBe(Buffer.byteLength(expected, 'utf8'));
        expect(streamed(out).equals(Buffer.from(expected, 'utf8'))).toBe(true);
        // Small chunks meet every boundary the 64 Ki-character chunks meet in a large block.
        const pieces = src.values === undefined ? [src.template] : [...blockPieces(src.template, src.values)];
        const shown = src.asciiOnly ? [...asciiOnlyPieces(pieces)] : pieces;
        expect(Buffer.concat([...utf8Chunks(shown, chunkChars)]).equals(Buffer.from(expected, 'utf8'))).toBe(true);
        expect(utf8Size(shown)).toBe(Buffer.byteLength(expected, 'utf8'));
        expect(joinPieces(shown)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('filters a value repeated many times once, with the letter held before it', () => {
    const long = `${'a'.repeat(100)}\u0308€`;
    const pieces = ['o', long, long, '\u0308', 'a', long];
    expect(joinPieces(asciiOnlyPieces(pieces))).toBe(asciiOnly(pieces.join('')));
  });

  it('counts UTF-8 bytes: exactly at the bound passes, one byte more is refused', () => {
    const out = new BlockOutput({ template: '${b}${emoji}', values, asciiOnly: false }, 11); // 'zwei ä' is 7 bytes, the emoji 4
    expect(out.renderedBytes).toBe(11);
    expect(out.text()).toBe('zwei ä🙂');
    expect(() => new BlockOutput({ template: '${b}${emoji}', values, asciiOnly: false }, 10)).toThrow(BlockTooLarge);
  });

  it('sends the raw template as it is, unbounded (nothing is expanded)', () => {
    const out = new BlockOutput({ template: '${a} stays', values: undefined, asciiOnly: false }, 1);
    expect(out.text()).toBe('${a} stays');
  });

  it('stops at the bound instead of expanding 300 MB', () => {
    const big = new Map([['a', 'x'.repeat(6000)]]);
    const started = process.hrtime.bigint();
    expect(() => new BlockOutput({ template: '${a}'.repeat(50_000), values: big, asciiOnly: false }, 10 * 1024 * 1024)).toThrow(
      /larger than 10485760 bytes/,
    );
    // Reaching 10 MiB of pieces takes milliseconds; the whole expansion would take far longer.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
  });

  it('cuts a long piece into chunks, so a large value never makes one large buffer', () => {
    const out = new BlockOutput({ template: '${a}${a}', values: new Map([['a', 'é'.repeat(200_000)]]), asciiOnly: false }, 10_000_000);
    const sizes = [...out.chunks()].map((c) => c.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(800_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * 64 * 1024);
  });
});

describe('the tag of a block, made from what it is made of', () => {
  const base: BlockSource = { template: 'host ${h}\n', values: new Map([['h', 'web1']]), asciiOnly: false };
  const tagOf = (s: BlockSource) => new BlockOutput(s, 1_000_000).entity.tag;

  it('is the same for the same sources, and 27 base64url characters', () => {
    expect(tagOf(base)).toBe(tagOf({ ...base, values: new Map([['h', 'web1']]) }));
    expect(tagOf(base)).toMatch(/^[A-Za-z0-9_-]{27}$/);
  });

  it('changes with the template, a value, a name, asciiOnly, or raw against a section', () => {
    const tags = [
      base,
      { ...base, template: 'host ${h}\r\n' },
      { ...base, values: new Map([['h', 'web2']]) },
      { ...base, values: new Map([['h', 'web1'], ['i', '']]) },
      { ...base, values: new Map([['i', 'web1']]) },
      { ...base, asciiOnly: true },
      { ...base, values: undefined },
      { ...base, values: new Map() },
      // The same characters split differently between names and values.
      { ...base, values: new Map([['h', 'web1i']]) },
      { ...base, values: new Map([['hw', 'eb1']]) },
      // A lone surrogate and the replacement character it is encoded as in UTF-8: different texts once joined.
      { ...base, template: '\ud83d${h}', values: new Map([['h', '\ude42']]) },
      { ...base, template: '\ud83d${h}', values: new Map([['h', '\ufffd']]) },
    ].map(tagOf);
    expect(new Set(tags).size).toBe(tags.length);
  });
});
