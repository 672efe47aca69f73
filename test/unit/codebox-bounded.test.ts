import { describe, expect, it } from 'vitest';
import { BlockTooLarge, substitute, substituteBounded } from '../../src/codeblocks/codebox/codebox.ts';

// The bounded rendering of a block (issue 44, finding 5) must give exactly what the unbounded one gave below the
// bound, and stop (without building the rest) above it.
describe('substituteBounded', () => {
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

  it('renders byte for byte what substitute renders', () => {
    for (const tpl of templates) expect(substituteBounded(tpl, values, 1_000_000)).toBe(substitute(tpl, values));
  });

  it('counts UTF-8 bytes: exactly at the bound passes, one byte more is refused', () => {
    const out = substitute('${b}${emoji}', values); // 'zwei ä' is 7 bytes, the emoji 4
    expect(Buffer.byteLength(out)).toBe(11);
    expect(substituteBounded('${b}${emoji}', values, 11)).toBe(out);
    expect(() => substituteBounded('${b}${emoji}', values, 10)).toThrow(BlockTooLarge);
  });

  it('stops at the bound instead of expanding 300 MB', () => {
    const big = new Map([['a', 'x'.repeat(6000)]]);
    const started = process.hrtime.bigint();
    expect(() => substituteBounded('${a}'.repeat(50_000), big, 10 * 1024 * 1024)).toThrow(/larger than 10485760 bytes/);
    // Reaching 10 MiB of pieces takes milliseconds; the whole expansion would take far longer.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
  });
});
