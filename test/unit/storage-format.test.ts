import { describe, expect, it } from 'vitest';
import {
  assignMacroIds,
  findMacroById,
  MAX_STORAGE_BYTES,
  MAX_STORAGE_DEPTH,
  parseStorage,
  StorageFormatError,
} from '../../src/wiki/storage/storage-format.ts';
import { XHTML_ENTITIES } from '../../src/wiki/storage/storage-entities.ts';

const MULTI = [
  '<p>Intro&nbsp;text</p>',
  '<ac:structured-macro ac:name="advanced-codeblock-macro" ac:schema-version="1"',
  '                     ac:macro-id="11111111-2222-3333-4444-555555555555">',
  '  <ac:parameter ac:name="globaltitle">Web servers</ac:parameter>',
  '  <ac:parameter ac:name="expandFirst">true</ac:parameter>',
  '  <ac:plain-text-body><![CDATA[[alpha]',
  'host = a.example.org',
  '',
  '[content]',
  'server ${host};]]></ac:plain-text-body>',
  '</ac:structured-macro>',
].join('\n');

function errorOf(fn: () => unknown): StorageFormatError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StorageFormatError) return e;
    throw e;
  }
  throw new Error('expected a StorageFormatError');
}

describe('parseStorage: macros, parameters, bodies', () => {
  it('reads name, id, parameters and the CDATA plain body', () => {
    const [m, ...rest] = parseStorage(MULTI).macros;
    expect(rest).toHaveLength(0);
    expect(m).toMatchObject({
      name: 'advanced-codeblock-macro',
      macroId: '11111111-2222-3333-4444-555555555555',
      parameters: { globaltitle: 'Web servers', expandFirst: 'true' },
      body: '[alpha]\nhost = a.example.org\n\n[content]\nserver ${host};',
      bodyKind: 'plain',
      index: 0,
      parentIndex: undefined,
      path: [],
      line: 2,
      column: 1,
      selfClosing: false,
    });
    expect(MULTI.slice(m?.start, m?.end)).toMatch(/^<ac:structured-macro[\s\S]*<\/ac:structured-macro>$/);
  });

  it('decodes a CDATA section split around ]]> into one body', () => {
    const doc =
      '<ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[a]]]]><![CDATA[>b]]></ac:plain-text-body></ac:structured-macro>';
    expect(parseStorage(doc).macros[0]?.body).toBe('a]]>b');
  });

  it('accepts HTML named entities in text, parameters and attributes', () => {
    const doc =
      '<p title="&auml;&mdash;">Gr&uuml;&szlig;e &ndash; &ouml;&nbsp;&hellip;&euro;&#160;&#x2014;</p>' +
      '<ac:structured-macro ac:name="m"><ac:parameter ac:name="t">a &amp; b &lt;c&gt; &auml;&Ouml;&copy;</ac:parameter>' +
      '<ac:plain-text-body>x &amp;&amp; y &quot;&apos;</ac:plain-text-body></ac:structured-macro>';
    const [m] = parseStorage(doc).macros;
    expect(m?.parameters['t']).toBe('a & b <c> äÖ©');
    expect(m?.body).toBe('x && y "\'');
  });

  it('knows the full XHTML 1.0 entity set', () => {
    expect(Object.keys(XHTML_ENTITIES)).toHaveLength(249);
    expect(XHTML_ENTITIES['nbsp']).toBe('\u00a0');
    expect(XHTML_ENTITIES['yuml']).toBe('\u00ff');
    expect(XHTML_ENTITIES['szlig']).toBe('ß');
    expect(XHTML_ENTITIES['auml'] + XHTML_ENTITIES['ouml']! + XHTML_ENTITIES['uuml']!).toBe('äöü');
    expect(XHTML_ENTITIES['Omega']).toBe('Ω');
    expect(XHTML_ENTITIES['sigmaf']).toBe('ς');
    expect(XHTML_ENTITIES['mdash']).toBe('—');
    expect(XHTML_ENTITIES['euro']).toBe('€');
  });

  it('lists nested macros in layouts, tables and rich-text bodies in document order', () => {
    const doc = [
      '<ac:layout><ac:layout-section ac:type="two_equal"><ac:layout-cell>',
      '<ac:structured-macro ac:name="info" ac:macro-id="outer">',
      '<ac:parameter ac:name="title">Box</ac:parameter>',
      '<ac:rich-text-body><p>See:</p>',
      '<ac:structured-macro ac:name="advanced-single-codeblock-macro" ac:macro-id="inner">',
      '<ac:parameter ac:name="lang">Bash</ac:parameter>',
      '<ac:plain-text-body><![CDATA[echo hi]]></ac:plain-text-body></ac:structured-macro>',
      '</ac:rich-text-body></ac:structured-macro>',
      '</ac:layout-cell><ac:layout-cell><table><tbody><tr><td>',
      '<ac:structured-macro ac:name="code" ac:macro-id="in-table"/>',
      '</td></tr></tbody></table></ac:layout-cell></ac:layout-section></ac:layout>',
    ].join('\n');
    const macros = parseStorage(doc).macros;
    expect(macros.map((m) => m.macroId)).toEqual(['outer', 'inner', 'in-table']);
    const [outer, inner, inTable] = macros;
    expect(outer?.path).toEqual(['ac:layout', 'ac:layout-section', 'ac:layout-cell']);
    expect(outer?.parameters).toEqual({ title: 'Box' });
    expect(outer?.bodyKind).toBe('rich');
    expect(outer?.body).toContain('<ac:structured-macro ac:name="advanced-single-codeblock-macro"');
    expect(outer?.body?.startsWith('<p>See:</p>')).toBe(true);
    expect(inner).toMatchObject({
      parentIndex: 0,
      bodyKind: 'plain',
      body: 'echo hi',
      parameters: { lang: 'Bash' },
      line: 5,
    });
    expect(inTable).toMatchObject({
      parentIndex: undefined,
      bodyKind: 'none',
      body: undefined,
      selfClosing: true,
    });
    expect(inTable?.path.slice(-4)).toEqual(['table', 'tbody', 'tr', 'td']);
  });

  it('keeps parameter names as written, takes text of nested elements, last duplicate wins', () => {
    const doc =
      '<ac:structured-macro ac:name="m"><ac:parameter ac:name="Page">' +
      '<ac:link><ri:page ri:content-title="Home"/></ac:link>x</ac:parameter>' +
      '<ac:parameter ac:name="a">1</ac:parameter><ac:parameter ac:name="a">2</ac:parameter>' +
      '<ac:parameter ac:name="empty"/></ac:structured-macro>';
    expect(parseStorage(doc).macros[0]?.parameters).toEqual({ Page: 'x', a: '2', empty: '' });
  });

  it('parses fragments with several top-level nodes, text and comments', () => {
    const doc = 'loose text <!-- note --><p>a</p>\n<h1>b</h1> tail';
    expect(parseStorage(doc).macros).toEqual([]);
  });

  it('accepts documents that declare the namespaces themselves', () => {
    const doc = '<div xmlns:ac="http://atlassian.com/content"><ac:structured-macro ac:name="x"/></div>';
    expect(parseStorage(doc).macros[0]?.name).toBe('x');
  });

  it('applies XML line-end normalisation to plain bodies, but keeps &#13;', () => {
    const doc =
      '<ac:structured-macro ac:name="m"><ac:plain-text-body><![CDATA[a\r\nb\rc]]>&#13;</ac:plain-text-body></ac:structured-macro>';
    expect(parseStorage(doc).macros[0]?.body).toBe('a\nb\nc\r');
  });

  it('finds a macro by id, or nothing', () => {
    expect(findMacroById(MULTI, '11111111-2222-3333-4444-555555555555')?.parameters['globaltitle']).toBe(
      'Web servers',
    );
    expect(findMacroById(MULTI, 'nope')).toBeUndefined();
  });
});

describe('parseStorage: malformed input', () => {
  it.each([
    ['<p>\n<b></p>', 2, 4, 'closing tag </p> does not match <b> opened at line 2, column 1'],
    ['<p>ok</p>\n<div>\n  <span>x</span>\n', 2, 1, 'element <div> is never closed'],
    ['<p>a</p>\n  </x>', 2, 3, 'closing tag </x> has no matching start tag'],
    ['<p>Gr&uumlaut;e</p>', 1, 6, 'undefined entity &uumlaut;'],
    ['<p>\n<x:y/></p>', 2, 6, 'unbound namespace prefix: "x"'],
    ['<p>a\u0001b</p>', 1, 5, 'disallowed character'],
    ['<p>a\u0000</p>', 1, 5, 'disallowed character'],
    ['<p a="1" a="2"/>', 1, 16, 'duplicate attribute: a'],
    ['<ac:plain-text-body><![CDATA[abc', 1, 33, 'unexpected end of document'],
    ['<p>a &amp', 1, 10, 'unexpected end of document'],
  ])('%j → line %i, column %i', (doc, line, column, text) => {
    const err = errorOf(() => parseStorage(doc));
    expect(err.line).toBe(line);
    expect(err.column).toBe(column);
    expect(err.message).toContain(`line ${line}, column ${column}: `);
    expect(err.message).toContain(text);
  });

  it('never mentions its synthetic wrapper element', () => {
    for (const doc of ['<p>', '</p>', '<p', '<!-- x']) {
      expect(errorOf(() => parseStorage(doc)).message).not.toContain('addon-pair-storage-root');
    }
  });

  it('refuses documents over 5 MiB', () => {
    const big = '<p>' + 'x'.repeat(MAX_STORAGE_BYTES) + '</p>';
    expect(errorOf(() => parseStorage(big)).message).toMatch(/larger than/);
    // Multi-byte characters count as bytes: 2 MiB of 'ä' (4 MiB of UTF-8) passes, 3 MiB fails.
    expect(parseStorage('<p>' + 'ä'.repeat(2 * 1024 * 1024) + '</p>').macros).toEqual([]);
    expect(() => parseStorage('<p>' + 'ä'.repeat(3 * 1024 * 1024) + '</p>')).toThrow(StorageFormatError);
  });

  it(`refuses nesting deeper than ${MAX_STORAGE_DEPTH}`, () => {
    const nest = (n: number): string => '<div>'.repeat(n) + '</div>'.repeat(n);
    expect(parseStorage(nest(MAX_STORAGE_DEPTH)).macros).toEqual([]);
    const err = errorOf(() => parseStorage(nest(MAX_STORAGE_DEPTH + 1)));
    expect(err.message).toMatch(/deeper than 200/);
    expect(() => parseStorage(nest(100_000))).toThrow(StorageFormatError);
  });
});

describe('assignMacroIds', () => {
  const counter = (): (() => string) => {
    let n = 0;
    return () => `id-${++n}`;
  };

  it('adds ids to macros without one and preserves every other byte', () => {
    const doc =
      '<p>Gr&uuml;&szlig;e&nbsp;&mdash;</p>\r\n' +
      '<ac:structured-macro ac:schema-version="1" ac:name="advanced-codeblock-macro"  >\r\n' +
      '  <ac:parameter ac:name="lang">C#</ac:parameter>\r\n' +
      '  <ac:plain-text-body><![CDATA[[a]\r\nk = v &amp; ]]]]><![CDATA[>\r\n[content]\r\n${k}]]></ac:plain-text-body>\r\n' +
      '</ac:structured-macro>\n<ac:structured-macro ac:name="code"/>\t';
    const out = assignMacroIds(doc, counter());
    expect(out.assigned).toBe(2);
    expect(out.xhtml.replace(' ac:macro-id="id-1"', '').replace(' ac:macro-id="id-2"', '')).toBe(doc);
    expect(out.xhtml).toContain('ac:name="advanced-codeblock-macro"   ac:macro-id="id-1">');
    expect(out.xhtml).toContain('<ac:structured-macro ac:name="code" ac:macro-id="id-2"/>');
    expect(out.macros.map((m) => m.macroId)).toEqual(['id-1', 'id-2']);
    expect(out.macros[0]?.body).toBe('[a]\nk = v &amp; ]]>\n[content]\n${k}');
    expect(parseStorage(out.xhtml).macros.map((m) => m.macroId)).toEqual(['id-1', 'id-2']);
  });

  it('keeps existing ids and returns the same text when nothing is missing', () => {
    const out = assignMacroIds(MULTI, counter());
    expect(out.assigned).toBe(0);
    expect(out.xhtml).toBe(MULTI);
    expect(out.macros[0]?.macroId).toBe('11111111-2222-3333-4444-555555555555');
  });

  it('handles nested macros and mixes of kept and new ids', () => {
    const doc =
      '<ac:structured-macro ac:name="a" ac:macro-id="keep"><ac:rich-text-body>' +
      '<ac:structured-macro ac:name="b"><ac:rich-text-body><ac:structured-macro ac:name="c"/>' +
      '</ac:rich-text-body></ac:structured-macro></ac:rich-text-body></ac:structured-macro>';
    const out = assignMacroIds(doc, counter());
    expect(out.macros.map((m) => [m.name, m.macroId, m.parentIndex])).toEqual([
      ['a', 'keep', undefined],
      ['b', 'id-1', 0],
      ['c', 'id-2', 1],
    ]);
  });

  it('replaces blank ids and later duplicates, in place', () => {
    const doc =
      '<ac:structured-macro ac:macro-id="" ac:name="a"/>' +
      '<ac:structured-macro ac:macro-id = \'  \' ac:name="b"/>' +
      '<ac:structured-macro ac:name="c" ac:macro-id="dup"/>' +
      '<ac:structured-macro ac:title="ac:macro-id=&quot;dup&quot;" ac:macro-id="dup" ac:name="d"/>';
    const out = assignMacroIds(doc, counter());
    expect(out.xhtml).toBe(
      '<ac:structured-macro ac:macro-id="id-1" ac:name="a"/>' +
        '<ac:structured-macro ac:macro-id = \'id-2\' ac:name="b"/>' +
        '<ac:structured-macro ac:name="c" ac:macro-id="dup"/>' +
        '<ac:structured-macro ac:title="ac:macro-id=&quot;dup&quot;" ac:macro-id="id-3" ac:name="d"/>',
    );
  });

  it('never hands out an id that is already in the document', () => {
    const doc = '<ac:structured-macro ac:name="a"/><ac:structured-macro ac:name="b" ac:macro-id="id-1"/>';
    const out = assignMacroIds(doc, counter());
    expect(out.macros.map((m) => m.macroId)).toEqual(['id-2', 'id-1']);
  });

  it('escapes generated ids for the attribute and rejects a stuck generator', () => {
    const out = assignMacroIds('<ac:structured-macro ac:name="a"/>', () => 'a"&<b');
    expect(out.macros[0]?.macroId).toBe('a"&<b');
    expect(() => assignMacroIds('<ac:structured-macro ac:name="a"/>', () => '')).toThrow(/generator/);
  });

  it('rejects malformed documents before changing anything', () => {
    expect(() => assignMacroIds('<ac:structured-macro ac:name="a">', counter())).toThrow(StorageFormatError);
  });
});
