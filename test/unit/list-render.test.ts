import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { parseCodebox } from '../../src/codeblocks/codebox/codebox.ts';
import {
  renderJsonError,
  renderJsonHostStatus,
  renderJsonList,
  renderXmlError,
  renderXmlHostStatus,
  renderXmlList,
  type DownloadList,
} from '../../src/codeblocks/list-render.ts';

interface Node {
  name: string;
  children: Node[];
  text: string;
}

/** Strict XML 1.0 parse (throws on any well-formedness error) into a small element tree. */
function parseXml(xml: string): Node {
  const parser = new SaxesParser();
  const root: Node = { name: '#document', children: [], text: '' };
  const stack: Node[] = [root];
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const node: Node = { name: tag.name, children: [], text: '' };
    stack[stack.length - 1]?.children.push(node);
    stack.push(node);
  });
  parser.on('closetag', () => stack.pop());
  parser.on('text', (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  parser.write(xml).close();
  const [doc] = root.children;
  if (!doc) throw new Error('no root element');
  return doc;
}

const names = (n: Node | undefined): string[] => (n?.children ?? []).map((c) => c.name);
const child = (n: Node | undefined, name: string): Node | undefined =>
  n?.children.find((c) => c.name === name);

const BASE = 'https://wiki.example.org/plugins/servlet/advanced-codeblock-macro-downloadcode';

const contentList: DownloadList = {
  wrapper: 'content',
  record: {
    contentId: '98765',
    contentTitle: 'Web & "servers" <prod>',
    contentType: 'page',
    spaceKey: 'DEMO',
    macroId: 'm-1',
  },
  blocks: [
    {
      key: 'dGVzdHN5c3RlbSAx',
      name: 'testsystem 1',
      download: `${BASE}?key=dGVzdHN5c3RlbSAx&pageId=98765&macroId=m-1`,
    },
    { key: 'cmF3', name: 'raw', download: `${BASE}?key=cmF3&pageId=98765&macroId=m-1` },
  ],
};

describe('renderXmlList', () => {
  it('writes the declaration, root, record and blocks in contract order', () => {
    const xml = renderXmlList(contentList);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const doc = parseXml(xml);
    expect(doc.name).toBe('advancedCodeblockMacro');
    expect(names(doc)).toEqual(['content', 'codeBlocks']);
    const content = child(doc, 'content');
    expect(names(content)).toEqual(['contentId', 'contentTitle', 'contentType', 'spaceKey', 'macroId']);
    expect(child(content, 'contentTitle')?.text).toBe('Web & "servers" <prod>');
    const blocks = child(doc, 'codeBlocks')?.children ?? [];
    expect(blocks.map((b) => b.name)).toEqual(['codeBlock', 'codeBlock']);
    expect(names(blocks[0])).toEqual(['key', 'name', 'download']);
    expect(child(blocks[1], 'download')?.text).toBe(`${BASE}?key=cmF3&pageId=98765&macroId=m-1`);
  });

  it('escapes & as &amp; in text and uses no CDATA', () => {
    const xml = renderXmlList(contentList);
    expect(xml).toContain('?key=cmF3&amp;pageId=98765&amp;macroId=m-1</download>');
    expect(xml).toContain('<contentTitle>Web &amp; "servers" &lt;prod&gt;</contentTitle>');
    expect(xml).not.toContain('CDATA');
  });

  it('writes the older page record under a page wrapper', () => {
    const doc = parseXml(
      renderXmlList({
        wrapper: 'page',
        record: { pageId: 42, pageName: 'Home', spaceKey: 'DS', macroId: 'm' },
        blocks: [],
      }),
    );
    expect(names(doc)).toEqual(['page', 'codeBlocks']);
    expect(names(child(doc, 'page'))).toEqual(['pageId', 'pageName', 'spaceKey', 'macroId']);
    expect(child(child(doc, 'page'), 'pageId')?.text).toBe('42');
    expect(child(doc, 'codeBlocks')?.children).toEqual([]);
  });

  it('stays well-formed XML 1.0 with ]]>, control characters, lone surrogates and CR in names', () => {
    const nasty = 'a]]>b\u0000c\u0001d\u000be\ud800f\uFFFEg\th\r\ni😀';
    const xml = renderXmlList({ ...contentList, blocks: [{ key: 'k', name: nasty, download: 'x' }] });
    const name = child(child(child(parseXml(xml), 'codeBlocks'), 'codeBlock'), 'name')?.text;
    expect(name).toBe('a]]>b\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\th\r\ni😀');
    expect(xml).toContain(']]&gt;');
  });

  it('carries template text with ]]> and control characters into a parseable XML body', () => {
    const box = parseCodebox(
      'advanced-codeblock-macro',
      '[a]\nv = ]]>\n[content]\nx${v}\u0000\u0001\u000b<![CDATA[y]]>\n',
    );
    const text = box.blocks[0]?.text ?? '';
    expect(text).toBe('x]]>\u0000\u0001\u000b<![CDATA[y]]>\n');
    const doc = parseXml(renderXmlError({ error: 'e', message: 'm', extraMessage: text }));
    expect(child(doc, 'extraMessage')?.text).toBe('x]]>\uFFFD\uFFFD\uFFFD<![CDATA[y]]>\n');
  });

  it('lets the same text through the JSON list unchanged', () => {
    const nasty = 'a]]>b\u0001c';
    const json = JSON.parse(
      renderJsonList({ ...contentList, blocks: [{ key: 'k', name: nasty, download: 'x' }] }),
    );
    expect(json.codeBlocks[0].name).toBe(nasty);
  });
});

describe('renderJsonList', () => {
  it('writes content then codeBlocks, with the content id as an integer', () => {
    const text = renderJsonList(contentList);
    expect(Object.keys(JSON.parse(text))).toEqual(['content', 'codeBlocks']);
    expect(text).toContain(
      '"content":{"contentId":98765,"contentTitle":"Web & \\"servers\\" <prod>","contentType":"page","spaceKey":"DEMO","macroId":"m-1"}',
    );
    expect(JSON.parse(text).codeBlocks).toEqual(contentList.blocks);
  });

  it('keeps ids that are not safe integers as strings and supports the page wrapper', () => {
    const json = JSON.parse(
      renderJsonList({
        wrapper: 'page',
        record: { pageId: '123456789012345678901', pageName: 'P', spaceKey: 'S', macroId: 'm' },
        blocks: [],
      }),
    );
    expect(json).toEqual({
      page: { pageId: '123456789012345678901', pageName: 'P', spaceKey: 'S', macroId: 'm' },
      codeBlocks: [],
    });
  });
});

describe('error bodies', () => {
  it('renders the app XML error with optional extraMessage', () => {
    const doc = parseXml(
      renderXmlError({
        error: '500_ERROR_IO_EXCEPTION',
        message: 'Did you provide valid URL-Parameters?',
        extraMessage: 'a & b',
      }),
    );
    expect(doc.name).toBe('advancedCodeblockMacro');
    expect(doc.children.map((c) => [c.name, c.text])).toEqual([
      ['error', '500_ERROR_IO_EXCEPTION'],
      ['message', 'Did you provide valid URL-Parameters?'],
      ['extraMessage', 'a & b'],
    ]);
    expect(
      names(
        parseXml(renderXmlError({ error: '403_FORBIDDEN', message: 'no read permission on page with id 1' })),
      ),
    ).toEqual(['error', 'message']);
  });

  it('renders the app JSON error in the same order', () => {
    expect(renderJsonError({ error: '401_UNAUTHORIZED', message: 'no logged in user found' })).toBe(
      '{"error":"401_UNAUTHORIZED","message":"no logged in user found"}',
    );
    expect(Object.keys(JSON.parse(renderJsonError({ error: 'e', message: 'm', extraMessage: 'x' })))).toEqual(
      ['error', 'message', 'extraMessage'],
    );
  });

  it('renders the host status bodies', () => {
    const xml = renderXmlHostStatus(401, 'Client must be authenticated to access this resource.');
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><status><status-code>401</status-code>' +
        '<message>Client must be authenticated to access this resource.</message></status>',
    );
    expect(parseXml(xml).name).toBe('status');
    expect(renderJsonHostStatus(401, 'Client must be authenticated to access this resource.')).toBe(
      '{"message":"Client must be authenticated to access this resource.","status-code":401}',
    );
  });
});
