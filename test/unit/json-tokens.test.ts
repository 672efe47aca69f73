// The streaming JSON reader of uploads (issue 44): the same events whatever the chunking, strings with escapes
// and numbers cut between chunks, every kind of bad JSON refused with a position, and nesting and token length
// bounded (an explicit stack: no recursion).
import { describe, expect, it } from 'vitest';
import { JsonStreamError, JsonTokens, type JsonEvent } from '../../src/platform/http/json-tokens.ts';

function events(text: string, size: number, maxNesting = 64, maxToken = 65_536): JsonEvent[] {
  const out: JsonEvent[] = [];
  const tokens = new JsonTokens((e) => out.push(e), maxNesting, maxToken);
  for (let i = 0; i < text.length; i += size) tokens.push(text.slice(i, i + size));
  tokens.end();
  return out;
}

/** The value the events describe, rebuilt (with JSON.parse's answer to compare). */
function rebuild(evs: JsonEvent[]): unknown {
  const stack: { c: unknown[] | Record<string, unknown>; key?: string }[] = [];
  let root: unknown;
  const put = (v: unknown) => {
    const top = stack.at(-1);
    if (!top) root = v;
    else if (Array.isArray(top.c)) top.c.push(v);
    else top.c[top.key!] = v;
  };
  for (const e of evs) {
    if (e.kind === 'open') {
      const c = e.container === 'array' ? [] : {};
      put(c);
      stack.push({ c });
    } else if (e.kind === 'close') stack.pop();
    else if (e.kind === 'key') stack.at(-1)!.key = e.key;
    else put(e.value);
  }
  return root;
}

describe('JSON read as a stream', () => {
  const doc = JSON.stringify({ fieldId: 10_001, options: [{ id: 1, optionvalue: 'a "quoted" \\ \u00e9 \ud83d\ude00 \n', disabled: false, position: -1.5e3, children: [] }, { optionvalue: 'x', default: null, children: [{ optionvalue: 'y' }] }] });

  it('gives the same events in chunks of any size, escapes and numbers cut included', () => {
    const whole = events(doc, doc.length);
    expect(rebuild(whole)).toEqual(JSON.parse(doc));
    for (const size of [1, 2, 3, 7, 64]) expect(events(doc, size)).toEqual(whole);
    expect(rebuild(events(' 42 ', 1))).toBe(42);
    expect(rebuild(events('[true,false,null,"\\u0041"]', 1))).toEqual([true, false, null, 'A']);
  });

  it('refuses what is not JSON, with the character where', () => {
    for (const bad of ['{not json', '[1,]', '{"a" 1}', '[1 2]', '{"a":1,}', '[01]', '"open', '[', '', '1 2', ']', '{"a":tru}', '["\u0001"]']) {
      expect(() => events(bad, 3), bad).toThrow(JsonStreamError);
    }
    expect(() => events('[1,]', 100)).toThrow(/at character 4/);
  });

  it('bounds nesting and the length of one token, without recursion', () => {
    expect(() => events('['.repeat(65), 1000)).toThrow(/Nested more than 64 levels/);
    const deep = events(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 65_536, 200_000);
    expect(deep).toHaveLength(200_000);
    expect(() => events(`"${'x'.repeat(2_000)}"`, 100, 64, 1_000)).toThrow(/longer than 1000 characters/);
    expect(() => events(`${'1'.repeat(2_000)}`, 100, 64, 1_000)).toThrow(/longer than 1000 characters/);
  });
});
