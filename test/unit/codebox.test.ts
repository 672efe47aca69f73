import { describe, expect, it } from 'vitest';
import {
  buildBlocks,
  CODEBOX_ERROR_KINDS,
  CodeboxError,
  errorKeyFor,
  isCodeboxKind,
  parseCodebox,
  parseConfig,
  parseConfigOnly,
  splitAtContent,
  substitute,
  type CodeboxErrorKind,
} from '../../src/codeblocks/codebox/codebox.ts';

const NBSP = '\u00a0';

function codeboxError(fn: () => unknown): CodeboxError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CodeboxError) return e;
    throw e;
  }
  throw new Error('expected a CodeboxError');
}

describe('splitAtContent', () => {
  it.each([
    ['LF', '[a]\nk = v\n[content]\nbody\n'],
    ['CRLF', '[a]\nk = v\n[content]\r\nbody\n'],
    ['CR', '[a]\nk = v\n[content]\rbody\n'],
    ['LF-CR', '[a]\nk = v\n[content]\n\rbody\n'],
    ['spaces', '[a]\nk = v\n[content]   \nbody\n'],
    ['NBSP', `[a]\nk = v\n[content]${NBSP}${NBSP} \r\nbody\n`],
    ['tab', '[a]\nk = v\n[content]\t\nbody\n'],
  ])('splits after a marker line ending in %s', (_label, body) => {
    expect(splitAtContent(body)).toEqual({ config: '[a]\nk = v\n', template: 'body\n' });
  });

  it('keeps the config part with its trailing line break (vendor test case)', () => {
    expect(splitAtContent('foo\n[content]\r\nbar')).toEqual({ config: 'foo\n', template: 'bar' });
  });

  it('drops blank and blank-looking lines right after the marker, keeps first-line indentation', () => {
    expect(splitAtContent(`[content]\n\n  ${NBSP}\r\n\r\n    indented\n\nlater\n`)?.template).toBe(
      '    indented\n\nlater\n',
    );
    expect(splitAtContent('[content]\n\r\n\r\tx')?.template).toBe('\tx');
  });

  it('keeps the template exactly, trailing line breaks included', () => {
    expect(splitAtContent('[content]\na\r\nb\r\n\r\n')?.template).toBe('a\r\nb\r\n\r\n');
  });

  it('splits at the first usable marker only', () => {
    expect(splitAtContent('[content] x\n[content]\nA\n[content]\nB')).toEqual({
      config: '[content] x\n',
      template: 'A\n[content]\nB',
    });
  });

  it('needs a line break after the marker and is case-sensitive', () => {
    expect(splitAtContent('[a]\n[content]')).toBeUndefined();
    expect(splitAtContent('[a]\n[content]   ')).toBeUndefined();
    expect(splitAtContent('[a]\n[Content]\nx')).toBeUndefined();
    expect(splitAtContent('[a]\n[ content ]\nx')).toBeUndefined();
  });

  it('gives an empty template when nothing follows the marker line', () => {
    expect(splitAtContent('[a]\n[content]\n')).toEqual({ config: '[a]\n', template: '' });
  });
});

describe('parseConfig (INI)', () => {
  it('reads sections with spaces and umlauts, keys with dots and dashes, = in values', () => {
    const cfg = parseConfig(
      '[testsystem 1]\nbase.url = https://a.example.org/?x=1&y=2\ndocument-root=/var/www\n\n' +
        '[  Prüfsystem Größe ]\r\nbase.url   =   b=c  \r\n',
    );
    expect(cfg.sections.map((s) => s.name)).toEqual(['testsystem 1', 'Prüfsystem Größe']);
    expect(Object.fromEntries(cfg.sections[0]!.values)).toEqual({
      'base.url': 'https://a.example.org/?x=1&y=2',
      'document-root': '/var/www',
    });
    expect(cfg.sections[1]?.values.get('base.url')).toBe('b=c');
    expect(cfg.warnings).toEqual([]);
  });

  it('ignores comments and blank lines, keeps inline ; and # in values', () => {
    const cfg = parseConfig(
      '; top comment\n# another\n[a]\n  ; indented comment\nurl = http://x/#top ; not a comment\n\n\n',
    );
    expect(cfg.sections[0]?.values).toEqual(new Map([['url', 'http://x/#top ; not a comment']]));
    expect(cfg.warnings).toEqual([]);
  });

  it('trims NBSP around names, keys and values', () => {
    const cfg = parseConfig(`[${NBSP}prod${NBSP}]${NBSP}\nhost${NBSP}=${NBSP}a${NBSP}\n`);
    expect(cfg.sections[0]?.name).toBe('prod');
    expect(cfg.sections[0]?.values.get('host')).toBe('a');
  });

  it('skips keys before the first section and malformed lines, with warnings', () => {
    const cfg = parseConfig('orphan = 1\n[a]\njust text\n= nokey\nk =\n');
    expect(cfg.sections).toEqual([{ name: 'a', values: new Map([['k', '']]) }]);
    expect(cfg.warnings.map((w) => [w.line, w.reason])).toEqual([
      [1, 'key outside any section'],
      [3, 'not a section, key = value pair or comment'],
      [4, 'key missing before "="'],
    ]);
  });

  it('skips a section without a name together with its keys', () => {
    const cfg = parseConfig('[ ]\nk = 1\n[b]\nk = 2\n');
    expect(cfg.sections).toEqual([{ name: 'b', values: new Map([['k', '2']]) }]);
    expect(cfg.warnings).toHaveLength(1);
  });

  it('merges a repeated section into the first and lets the last duplicate key win', () => {
    const cfg = parseConfig('[a]\nx = 1\ny = 1\n[b]\nx = 9\n[a]\nx = 2\nz = 3\n');
    expect(cfg.sections.map((s) => s.name)).toEqual(['a', 'b']);
    expect(Object.fromEntries(cfg.sections[0]!.values)).toEqual({ x: '2', y: '1', z: '3' });
  });

  it('treats CR, CRLF and LF-CR line ends alike', () => {
    const cfg = parseConfig('[a]\rx = 1\n\ry = 2\r\nz = 3');
    expect(Object.fromEntries(cfg.sections[0]!.values)).toEqual({ x: '1', y: '2', z: '3' });
  });
});

describe('substitute', () => {
  const values = new Map([
    ['host', 'a.example.org'],
    ['document.root', '/var/www'],
    ['loop', '${host}'],
  ]);

  it('replaces known variables and keeps unknown ones as written', () => {
    expect(substitute('server ${host}; root ${document.root}; ${missing} ${ host } ${}', values)).toBe(
      'server a.example.org; root /var/www; ${missing} ${ host } ${}',
    );
  });

  it('does a single pass: substituted values are not expanded again', () => {
    expect(substitute('${loop}', values)).toBe('${host}');
  });

  it('still finds a variable right after a broken one', () => {
    expect(substitute('${a${host}', values)).toBe('${aa.example.org');
    expect(substitute('$${host}} $host {host}', values)).toBe('$a.example.org} $host {host}');
  });

  it('handles a 1 MiB template', () => {
    const line = 'listen ${host}:80; # ä\n';
    const template = line.repeat(Math.ceil((1024 * 1024) / line.length));
    const out = substitute(template, values);
    expect(out).toBe('listen a.example.org:80; # ä\n'.repeat(Math.ceil((1024 * 1024) / line.length)));
  });
});

describe('parseCodebox: multi', () => {
  const body = [
    '[testsystem 1]',
    'base.url = https://one.example.org',
    'document.root = /srv/one',
    '',
    '[testsystem 2]',
    'base.url = https://two.example.org',
    '[content]',
    'DocumentRoot ${document.root}',
    'ServerName ${base.url}',
    '',
  ].join('\r\n');

  it('lists one block per section, then the raw template', () => {
    const box = parseCodebox('advanced-codeblock-macro', body, { lang: 'Apache' });
    expect(box.blocks.map((b) => [b.name, b.key])).toEqual([
      ['testsystem 1', 'dGVzdHN5c3RlbSAx'],
      ['testsystem 2', 'dGVzdHN5c3RlbSAy'],
      ['raw', 'cmF3'],
    ]);
    expect(box.blocks[0]?.text).toBe('DocumentRoot /srv/one\r\nServerName https://one.example.org\r\n');
    expect(box.blocks[1]?.text).toBe(
      'DocumentRoot ${document.root}\r\nServerName https://two.example.org\r\n',
    );
    expect(box.blocks[2]?.text).toBe('DocumentRoot ${document.root}\r\nServerName ${base.url}\r\n');
    expect(box.template).toBe(box.blocks[2]?.text);
    expect(JSON.parse(JSON.stringify(box.blocks[0]))).toEqual({
      name: 'testsystem 1',
      key: 'dGVzdHN5c3RlbSAx',
      text: 'DocumentRoot /srv/one\r\nServerName https://one.example.org\r\n',
    });
  });

  it('lets the raw template win the cmF3 key over a section named raw', () => {
    const box = parseCodebox('advanced-codeblock-macro', '[raw]\nx = 1\n[prod]\nx = 2\n[content]\nv=${x}');
    expect(box.blocks.map((b) => b.name)).toEqual(['prod', 'raw']);
    expect(box.sections.map((s) => s.name)).toEqual(['raw', 'prod']);
    expect(box.blocks.find((b) => b.name === 'raw')?.text).toBe('v=${x}');
    expect(box.blocks.find((b) => b.name === 'prod')?.text).toBe('v=2');
    expect(box.blocks.find((b) => b.name === 'nope')).toBeUndefined();
  });

  it('accepts a body with a template but no sections', () => {
    const box = parseCodebox('advanced-codeblock-macro', '[content]\necho ${x}\n');
    expect(box.blocks.map((b) => [b.name, b.text])).toEqual([['raw', 'echo ${x}\n']]);
  });

  it('rejects a body without [content] and an empty body', () => {
    expect(codeboxError(() => parseCodebox('advanced-codeblock-macro', '[a]\nx = 1\n')).kind).toBe(
      'INVALID_MACRO_BODY',
    );
    expect(codeboxError(() => parseCodebox('advanced-codeblock-macro', '[a]\n[content]')).kind).toBe(
      'INVALID_MACRO_BODY',
    );
    for (const empty of [undefined, '', `  \r\n\t${NBSP}\n`]) {
      expect(codeboxError(() => parseCodebox('advanced-codeblock-macro', empty)).kind).toBe(
        'EMPTY_MACRO_BODY',
      );
    }
  });

  it('does not expand every block when only listing (text is lazy)', () => {
    const sections = Array.from({ length: 10_000 }, (_, i) => `[s${i}]\nx = ${i}`).join('\n');
    const box = parseCodebox('advanced-codeblock-macro', `${sections}\n[content]\n${'${x}'.repeat(100_000)}`);
    expect(box.blocks).toHaveLength(10_001);
    expect(box.blocks[9_999]?.key).toBe(Buffer.from('s9999').toString('base64'));
    expect(box.blocks[42]?.text.slice(0, 6)).toBe('424242');
  });
});

describe('parseCodebox: single and remote', () => {
  it('offers the single body as the raw block, untouched', () => {
    const box = parseCodebox('advanced-single-codeblock-macro', '[content]\necho ${x}\n');
    expect(box.blocks.map((b) => [b.name, b.key, b.text])).toEqual([
      ['raw', 'cmF3', '[content]\necho ${x}\n'],
    ]);
    expect(codeboxError(() => parseCodebox('advanced-single-codeblock-macro', ' \n')).kind).toBe(
      'EMPTY_MACRO_BODY',
    );
  });

  it('parses only the config of a remote box and builds blocks once the template arrives', () => {
    const box = parseCodebox('advanced-remote-codeblock-macro', '[prod]\nhost = p\n[test]\nhost = t\n', {
      remotefileurl: 'https://files.example.org/t.conf',
      remotefilehttpuser: 'u',
    });
    expect(box.template).toBeUndefined();
    expect(box.blocks).toEqual([]);
    expect(box.remote).toEqual({ url: 'https://files.example.org/t.conf', user: 'u', password: undefined });
    const blocks = buildBlocks(box.sections, 'host=${host}\n');
    expect(blocks.map((b) => [b.name, b.text])).toEqual([
      ['prod', 'host=p\n'],
      ['test', 'host=t\n'],
      ['raw', 'host=${host}\n'],
    ]);
  });

  it('ignores anything after [content] in a remote body and allows an empty one', () => {
    expect(parseConfigOnly('[a]\nk = 1\n[content]\n[b]\nk = 2\n').sections.map((s) => s.name)).toEqual(['a']);
    expect(parseConfigOnly(undefined)).toEqual({ sections: [], warnings: [] });
    expect(parseConfigOnly('  \n')).toEqual({ sections: [], warnings: [] });
  });
});

describe('kinds and errors', () => {
  it('recognises the three macro names', () => {
    expect(isCodeboxKind('advanced-codeblock-macro')).toBe(true);
    expect(isCodeboxKind('advanced-single-codeblock-macro')).toBe(true);
    expect(isCodeboxKind('advanced-remote-codeblock-macro')).toBe(true);
    expect(isCodeboxKind('code')).toBe(false);
  });

  it('maps every error kind to its 500 error key', () => {
    expect(errorKeyFor('INVALID_MACRO_BODY')).toBe('500_ERROR_INVALID_MACRO_BODY_EXCEPTION');
    expect(errorKeyFor('OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED')).toBe(
      '500_ERROR_OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED_EXCEPTION',
    );
    const keys = CODEBOX_ERROR_KINDS.map((k: CodeboxErrorKind) => errorKeyFor(k));
    expect(keys).toHaveLength(10);
    for (const key of keys) expect(key).toMatch(/^500_ERROR_[A-Z_]+_EXCEPTION$/);
  });

  it('carries kind, a default message and a cause', () => {
    const cause = new Error('socket hang up');
    const err = new CodeboxError('IO', undefined, { cause });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('CodeboxError');
    expect(err.kind).toBe('IO');
    expect(err.message).toMatch(/remote template/);
    expect(err.cause).toBe(cause);
    expect(new CodeboxError('HTTP', 'status 404').message).toBe('status 404');
  });
});
