// The streaming object reader over entities.xml: objects with their scalar properties, references and
// collections, whatever the chunking; the quirks of real exports (`]] >` in CDATA, characters XML forbids,
// entities in CDATA and in escaped text); and XML that is not an export.
import { describe, expect, it } from 'vitest';
import { WikiExportError } from '../../../src/migration/wiki-export/export-error.ts';
import { readExportObjects, type ExportObject } from '../../../src/migration/wiki-export/object-reader.ts';

const wrap = (objects: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<hibernate-generic datetime="2024-01-02 10:11:12">${objects}</hibernate-generic>\n`;

const PAGE = `<object class="Page" package="com.atlassian.confluence.pages">
<id name="id">4398046511104</id>
<property name="title"><![CDATA[Home & <Away>]]></property>
<property name="position">3</property>
<property name="space" class="Space" package="com.atlassian.confluence.spaces"><id name="id">98305</id></property>
<property name="creator" class="ConfluenceUserImpl" package="com.atlassian.confluence.user"><id name="key"><![CDATA[8a7f808a]]></id></property>
<collection name="bodyContents" class="java.util.Collection"><element class="BodyContent" package="com.atlassian.confluence.core"><id name="id">7</id></element><element class="BodyContent" package="com.atlassian.confluence.core"><id name="id">8</id></element></collection>
</object>`;

async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(text: string, size = 1 << 16): Promise<{ objects: ExportObject[]; outside: number }> {
  const stats = { droppedOutside: 0 };
  const objects: ExportObject[] = [];
  for await (const o of readExportObjects(chunked(text, size), stats)) objects.push(o);
  return { objects, outside: stats.droppedOutside };
}

const body = (value: string) =>
  `<object class="BodyContent" package="com.atlassian.confluence.core"><id name="id">7</id><property name="body">${value}</property></object>`;

async function failure(text: string): Promise<WikiExportError> {
  try {
    await read(text);
  } catch (err) {
    expect(err).toBeInstanceOf(WikiExportError);
    expect((err as Error).message).not.toContain('\n');
    return err as WikiExportError;
  }
  throw new Error('expected a WikiExportError');
}

describe('objects', () => {
  it('reads class, id, text, references and collections', async () => {
    const { objects } = await read(wrap(PAGE));
    expect(objects).toHaveLength(1);
    const page = objects[0]!;
    expect(page.cls).toBe('Page');
    expect(page.id).toBe('4398046511104');
    expect(page.props.get('title')).toBe('Home & <Away>');
    expect(page.props.get('position')).toBe('3');
    expect(page.props.get('space')).toEqual({ cls: 'Space', id: '98305' });
    expect(page.props.get('creator')).toEqual({ cls: 'ConfluenceUserImpl', id: '8a7f808a' });
    expect(page.collections.get('bodyContents')).toEqual([
      { cls: 'BodyContent', id: '7' },
      { cls: 'BodyContent', id: '8' },
    ]);
    expect(page.dropped).toBe(0);
  });

  it.each([1, 2, 3, 7, 64, 1000])('gives the same objects in chunks of %i bytes (multi-byte characters cut too)', async (size) => {
    const text = wrap(PAGE.replace('Home', 'Hôme ✓ 𝄞') + body('<![CDATA[a\u0001b]]>') + PAGE);
    const whole = await read(text);
    const cut = await read(text, size);
    expect(cut).toEqual(whole);
    expect(cut.objects[0]!.props.get('title')).toBe('Hôme ✓ 𝄞 & <Away>');
    expect(cut.objects[1]!.props.get('body')).toBe('ab');
  });

  it('keeps entities inside CDATA as they are and decodes escaped text', async () => {
    const { objects } = await read(
      wrap(body('<![CDATA[<p>a&amp;b&nbsp;&lt;</p>]]>') + body('&lt;p&gt;a&amp;amp;b&amp;nbsp;&lt;/p&gt;')),
    );
    expect(objects.map((o) => o.props.get('body'))).toEqual(['<p>a&amp;b&nbsp;&lt;</p>', '<p>a&amp;b&nbsp;</p>']);
  });

  it('joins a CDATA section split around a nested ]]> and restores ]] > inside CDATA', async () => {
    const { objects } = await read(
      wrap(body('<![CDATA[x]]]]><![CDATA[>y]]>') + body('<![CDATA[<ac:plain-text-body><![CDATA[code]] >]]>')),
    );
    expect(objects.map((o) => o.props.get('body'))).toEqual(['x]]>y', '<ac:plain-text-body><![CDATA[code]]>']);
  });

  it('drops characters XML 1.0 forbids, raw or as references, and counts them on their object', async () => {
    const text = wrap(`\u0002${body('<![CDATA[a\u0001\u001Fb\uFFFE]]>')}${body('x&#1;y&#x1B;z&#10;&#xe9;&#65;')}\u0007`);
    const { objects, outside } = await read(text, 5);
    expect(objects.map((o) => [o.props.get('body'), o.dropped])).toEqual([
      ['ab', 3],
      ['xyz\néA', 2],
    ]);
    expect(outside).toBe(2);
  });

  it('ignores elements it does not know', async () => {
    const { objects } = await read(wrap(`<comment>not an object</comment>${PAGE}`));
    expect(objects.map((o) => o.cls)).toEqual(['Page']);
  });
});

describe('XML that is not an export', () => {
  it('another root element', async () => {
    const err = await failure('<?xml version="1.0"?><rss><channel/></rss>');
    expect(err.kind).toBe('not-export');
    expect(err.message).toBe('entities.xml is not a wiki space export: its root element is <rss>, not <hibernate-generic>');
  });

  it('not XML at all', async () => {
    const err = await failure('{"spaces": []}');
    expect(err.kind).toBe('not-export');
    expect(err.message).toMatch(/^entities\.xml is not a wiki space export: not XML \(line 1, column \d+: text data outside of root node\)$/);
  });

  it('XML cut short', async () => {
    const err = await failure(wrap(PAGE).slice(0, 300));
    expect(err.kind).toBe('malformed-xml');
    expect(err.message).toMatch(/^entities\.xml is not well-formed XML: /);
  });

  it('a mismatched tag inside an object', async () => {
    const err = await failure(wrap(PAGE.replace('</property>', '</propertie>')));
    expect(err.kind).toBe('malformed-xml');
    expect(err.message).toMatch(/^entities\.xml is not well-formed XML: line 4, column \d+: unexpected close tag$/);
  });
});
