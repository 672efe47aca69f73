// Issue 44, finding 8: one huge node of entities.xml (a 300 MB CDATA, a zip that inflates to a 656 MB text) is
// not read whole: the reader refuses a node longer than its bound (WIKI_EXPORT_MAX_TEXT_MB, 64 MB by default)
// with an error naming the object, having held no more than the bound.
import { describe, expect, it } from 'vitest';
import { WikiExportError } from '../../../src/migration/wiki-export/export-error.ts';
import { DEFAULT_MAX_NODE_CHARS, readExportObjects } from '../../../src/migration/wiki-export/object-reader.ts';

const MB = 1024 * 1024;
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<hibernate-generic datetime="2024-01-02 10:11:12">';
const OBJECT = '<object class="BodyContent" package="com.atlassian.confluence.core"><id name="id">7</id><property name="body">';

/** `head`, then `megabytes` of `x` made as they are read (never whole in the test either), then `tail`. */
async function* huge(head: string, megabytes: number, tail: string): AsyncGenerator<Buffer> {
  yield Buffer.from(head);
  const piece = Buffer.alloc(MB, 'x');
  for (let i = 0; i < megabytes; i++) yield piece;
  yield Buffer.from(tail);
}

async function refusal(chunks: AsyncIterable<Buffer>, maxNodeChars?: number): Promise<{ err: WikiExportError; grew: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    for await (const _ of readExportObjects(chunks, { droppedOutside: 0 }, 'entities.xml', maxNodeChars)) void _;
  } catch (err) {
    expect(err).toBeInstanceOf(WikiExportError);
    return { err: err as WikiExportError, grew: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(sampler);
  }
  throw new Error('expected a WikiExportError');
}

describe('a huge node of entities.xml', () => {
  it('refuses a 300 MB CDATA body at the bound, naming the object and property', async () => {
    const { err, grew } = await refusal(huge(`${HEAD}${OBJECT}<![CDATA[`, 300, ']]></property></object></hibernate-generic>'), 4 * MB);
    expect(err.kind).toBe('text-too-large');
    expect(err.message).toMatch(/longer than 4 MB characters in object BodyContent 7, property body .*WIKI_EXPORT_MAX_TEXT_MB/);
    expect(grew).toBeLessThan(100 * MB);
  });

  it('refuses a plain text node and a text between objects as well', async () => {
    const text = await refusal(huge(`${HEAD}${OBJECT}`, 20, '</property></object></hibernate-generic>'), 2 * MB);
    expect(text.err.message).toMatch(/in object BodyContent 7, property body/);
    const between = await refusal(huge(HEAD, 20, '</hibernate-generic>'), 2 * MB);
    expect(between.err.message).toMatch(/outside any object/);
  });

  it('has a default bound of 64 MB characters (the tests above use smaller ones: reading 64 MB takes long)', () => {
    expect(DEFAULT_MAX_NODE_CHARS).toBe(64 * MB);
  });

  it('reads a body just under the bound', async () => {
    const objects = [];
    for await (const o of readExportObjects(huge(`${HEAD}${OBJECT}<![CDATA[`, 1, ']]></property></object></hibernate-generic>'), { droppedOutside: 0 }, 'entities.xml', 2 * MB)) objects.push(o);
    expect((objects[0]!.props.get('body') as string).length).toBe(MB);
  });
});
