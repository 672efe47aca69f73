// openWikiExport on exports built in the wiki's format (test/helpers/wiki-export-builder.ts): a space's
// content in import order (parents first, siblings by position, blog posts, then comments), restrictions,
// users and groups, bodies read back from the spool, and what is not imported counted per space; the same
// answer under every quirk of real exports, alone and all together; keys; the spool removed on close.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WikiExportError } from '../../../src/migration/wiki-export/export-error.ts';
import { openWikiExport } from '../../../src/migration/wiki-export/open-wiki-export.ts';
import type { SourceSpaceBundle, WikiSource } from '../../../src/migration/wiki/space-model.ts';
import {
  exportedId,
  writeEntitiesXml,
  writeExportZip,
  type ExportDescription,
  type ExportQuirks,
} from '../../helpers/wiki-export-builder.ts';

const dir = mkdtempSync(join(tmpdir(), 'wiki-export-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const quiet = { progress: () => {}, tmpDir: dir };

const CODE =
  '<p>Run:</p><ac:structured-macro ac:name="advanced-codeblock-macro" ac:macro-id="m-1">' +
  '<ac:plain-text-body><![CDATA[echo "a & b" > out && cat out]]></ac:plain-text-body></ac:structured-macro>';
const created = new Date('2024-01-02T10:11:12.123Z');
const modified = new Date('2024-03-04T05:06:07.000Z');

function description(quirks: ExportQuirks = {}): ExportDescription {
  return {
    quirks,
    users: [
      { name: 'alice', displayName: 'Alice Archer', email: 'alice@example.com' },
      { name: 'bob', active: false },
    ],
    groups: [{ name: 'devs', members: ['alice', 'carol'] }],
    spaces: [
      {
        id: 98305,
        key: 'OPS',
        name: 'Operations',
        description: 'Runbooks &amp; scripts',
        homePageId: 100,
        pages: [
          {
            id: 100, title: 'Home', body: CODE, version: 4, creator: 'alice', created, modified,
            historicalVersions: 3, attachments: 2,
            view: { users: ['alice'], groups: ['devs'] }, edit: { users: ['bob'] },
            comments: [
              { id: 200, body: '<p>Thanks &nbsp;</p>', creator: 'bob', created },
              { id: 201, body: '<p>gone</p>', creator: 'dave', status: 'deleted' },
            ],
            children: [
              { id: 102, title: 'B', body: '<p>b</p>', position: 1 },
              { id: 101, title: 'A', body: '<p>a</p>', position: 0, children: [{ id: 103, title: 'A1', body: '<p>a1</p>' }] },
              { id: 104, title: 'C', body: '<p>c</p>', bodyByBackReferenceOnly: true },
              { id: 105, title: 'Draft', body: '<p>d</p>', status: 'draft', comments: [{ id: 202, body: '<p>on a draft</p>' }] },
              { id: 106, title: 'Trashed', body: '<p>t</p>', status: 'deleted', children: [{ id: 107, title: 'Orphan', body: '<p>o</p>' }] },
            ],
          },
        ],
        blogPosts: [
          { id: 300, title: 'News', body: '<p>news</p>', created: new Date('2024-02-01T00:00:00Z') },
          { id: 301, title: 'Older', body: '<p>older</p>', created: new Date('2024-01-01T00:00:00Z') },
        ],
      },
      { id: 98306, key: 'DEV', name: 'Development', pages: [{ id: 400, title: 'Start', body: '<p>dev</p>' }] },
    ],
  };
}

const BODIES: Record<number, string> = {
  100: CODE, 101: '<p>a</p>', 102: '<p>b</p>', 103: '<p>a1</p>', 104: '<p>c</p>', 107: '<p>o</p>',
  300: '<p>news</p>', 301: '<p>older</p>', 200: '<p>Thanks &nbsp;</p>',
};

/** What OPS reads as, with the export's ids (`id` maps the description's). */
function expectedOps(id: (n: number) => number) {
  return {
    space: { id: id(98305), key: 'OPS', name: 'Operations', description: 'Runbooks &amp; scripts', homePageId: id(100) },
    content: [
      { id: id(100), type: 'page', title: 'Home', version: 4, creator: 'alice', createdAt: created, updatedAt: modified,
        viewRestrictions: { users: ['alice'], groups: ['devs'] } },
      { id: id(101), type: 'page', title: 'A', version: 1, parentId: id(100), position: 0 },
      { id: id(103), type: 'page', title: 'A1', version: 1, parentId: id(101) },
      { id: id(102), type: 'page', title: 'B', version: 1, parentId: id(100), position: 1 },
      { id: id(104), type: 'page', title: 'C', version: 1, parentId: id(100) },
      // Its parent is deleted: it goes under the nearest imported ancestor (keeping any restriction on the way).
      { id: id(107), type: 'page', title: 'Orphan', version: 1, parentId: id(100) },
      { id: id(301), type: 'blogpost', title: 'Older', version: 1, createdAt: new Date('2024-01-01T00:00:00Z'), updatedAt: new Date('2024-01-01T00:00:00Z') },
      { id: id(300), type: 'blogpost', title: 'News', version: 1, createdAt: new Date('2024-02-01T00:00:00Z'), updatedAt: new Date('2024-02-01T00:00:00Z') },
      { id: id(200), type: 'comment', title: '', version: 1, containerId: id(100), creator: 'bob', createdAt: created, updatedAt: created },
    ],
    users: [
      { name: 'alice', displayName: 'Alice Archer', email: 'alice@example.com', active: true },
      { name: 'bob', active: false },
      { name: 'carol', active: true },
    ],
    groups: [{ name: 'devs', members: ['alice', 'carol'] }],
    notImported: {
      drafts: 1,
      'deleted content': 2,
      'pages placed under a nearer ancestor or at the top (parent not imported; its restriction kept)': 1,
      'comments on content not imported': 1,
      'historical versions': 3,
      attachments: 2,
      'edit restrictions': 1,
    },
  };
}

async function open(desc: ExportDescription, how: 'zip' | 'xml' = 'zip'): Promise<WikiSource> {
  const file = join(dir, `${n++}.${how === 'zip' ? 'zip' : 'xml'}`);
  if (how === 'zip') writeExportZip(file, desc);
  else writeEntitiesXml(file, desc);
  return openWikiExport(file, quiet);
}

async function bundles(source: WikiSource, keys?: string[]): Promise<SourceSpaceBundle[]> {
  const out: SourceSpaceBundle[] = [];
  for await (const b of source.spaces(keys)) out.push(b);
  return out;
}

const shape = (b: SourceSpaceBundle) => ({ space: b.space, content: b.content, users: b.users, groups: b.groups, notImported: b.notImported });

describe('a space export read as a wiki source', () => {
  it('answers each space in import order, with bodies, people and what it leaves out', async () => {
    const source = await open(description());
    expect(source.label).toMatch(/^export \d+\.zip$/);
    const [dev, ops] = await bundles(source);
    expect(shape(ops!)).toEqual(expectedOps((i) => i));
    for (const c of ops!.content) expect(await ops!.body(c.id)).toBe(BODIES[c.id]);
    expect(dev!.space).toEqual({ id: 98306, key: 'DEV', name: 'Development', description: '' });
    expect(dev!.content.map((c) => c.id)).toEqual([400]);
    expect(await dev!.body(400)).toBe('<p>dev</p>');
    expect(await ops!.body(105)).toBe(''); // a draft is not part of the bundle
    await source.close();
  });

  const quirkSets: [string, ExportQuirks][] = [
    ['ids above 2^31', { bigIds: true }],
    [']] > inside CDATA', { cdataClose: 'space' }],
    ['bodies as escaped text', { bodyEncoding: 'escaped' }],
    ['bodies only through their back-reference', { bodiesByBackReferenceOnly: true }],
    ['memberships by name', { membership: 'internal' }],
    ['the old User and Group classes', { legacyUserClasses: true }],
    ['unknown classes', { unknownObjects: true }],
    ['children, bodies and comments before what they belong to', { reverseOrder: true }],
    ['characters XML forbids', { forbiddenChars: true }],
    ['all of them at once', {
      bigIds: true, cdataClose: 'space', bodiesByBackReferenceOnly: true, membership: 'internal', legacyUserClasses: true,
      unknownObjects: true, reverseOrder: true, forbiddenChars: true,
    }],
  ];

  it.each(quirkSets)('reads the same with %s', async (_label, quirks) => {
    const desc = description(quirks);
    const id = (i: number) => exportedId(desc, i);
    const source = await open(desc);
    const ops = (await bundles(source, ['OPS']))[0]!;
    const expected = expectedOps(id);
    // Each page and blog post carries one in its title and one in its body, each comment and the space
    // description one in their body, each older version two: 8 pages, 2 posts, 3 comments, 3 versions, 1.
    if (quirks.forbiddenChars) Object.assign(expected.notImported, { 'forbidden characters dropped': 16 + 4 + 3 + 6 + 1 });
    expect(shape(ops)).toEqual(expected);
    for (const c of ops.content) expect(await ops.body(c.id)).toBe(BODIES[c.id - id(0)]);
    await source.close();
  });

  it('reads a bare entities.xml as it reads the zip', async () => {
    const source = await open(description({ reverseOrder: true }), 'xml');
    const ops = (await bundles(source, ['OPS']))[0]!;
    expect(shape(ops)).toEqual(expectedOps((i) => i));
    expect(await ops.body(100)).toBe(CODE);
    await source.close();
  });

  it('ignores objects whose class names a member of every JavaScript object', async () => {
    const file = join(dir, `${n++}.xml`);
    writeEntitiesXml(file, description());
    const odd = ['constructor', '__proto__', 'toString', 'hasOwnProperty']
      .map((cls, i) => `<object class="${cls}" package="x"><id name="id">${9000 + i}</id><property name="title">t</property></object>\n`)
      .join('');
    writeFileSync(file, readFileSync(file, 'utf8').replace('</hibernate-generic>', `${odd}</hibernate-generic>`));
    const source = await openWikiExport(file, quiet);
    expect(shape((await bundles(source, ['OPS']))[0]!)).toEqual(expectedOps((i) => i));
    await source.close();
  });

  it('answers the spaces asked for, by key in any case, and leaves out a key it does not hold', async () => {
    const source = await open(description());
    expect((await bundles(source, ['dev'])).map((b) => b.space.key)).toEqual(['DEV']);
    expect((await bundles(source, ['OPS', 'NOPE', 'DEV'])).map((b) => b.space.key)).toEqual(['OPS', 'DEV']);
    expect(await bundles(source, ['NOPE'])).toEqual([]);
    await source.close();
  });

  it('leaves no spool in the temporary folder, even while open (the file is removed and kept open)', async () => {
    const spools = () => readdirSync(dir).filter((f) => f.startsWith('addon-pair-export-'));
    const before = spools().length;
    const source = await open(description());
    expect(spools()).toHaveLength(before);
    const ops = (await bundles(source, ['OPS']))[0]!;
    expect(await ops.body(100)).toBe(CODE);
    await source.close();
    await expect(ops.body(100)).rejects.toThrow('the export has been closed');
  });

  it('reports progress while reading', async () => {
    const file = join(dir, `${n++}.zip`);
    writeExportZip(file, description());
    const messages: string[] = [];
    const source = await openWikiExport(file, { progress: (m) => messages.push(m), tmpDir: dir });
    await source.close();
    expect(messages[0]).toMatch(/^reading \d+\.zip: entities\.xml, [\d.]+ MB inflated$/);
    expect(messages.at(-1)).toMatch(/^read \d+ objects in [\d.]+ s: 2 space\(s\), 7 pages, 2 blog posts, 2 comments; /);
  });
});

describe('exports it refuses, in one line', () => {
  it('an export without a space', async () => {
    const err = await open({ spaces: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WikiExportError);
    expect((err as WikiExportError).kind).toBe('not-export');
    expect((err as Error).message).toMatch(/^\d+\.zip holds no Space object: not a wiki space export$/);
  });

  it('an id that is not a number, leaving no spool behind', async () => {
    const file = join(dir, `${n++}.xml`);
    writeEntitiesXml(file, description());
    writeFileSync(file, readFileSync(file, 'utf8').replace('<id name="id">101</id>', '<id name="id">1o1</id>'));
    const before = readdirSync(dir).filter((f) => f.startsWith('addon-pair-export-')).length;
    const err = await openWikiExport(file, quiet).catch((e: unknown) => e);
    expect((err as Error).message).toBe('a Page has the id "1o1", not a whole number below 2^53');
    expect(readdirSync(dir).filter((f) => f.startsWith('addon-pair-export-'))).toHaveLength(before);
  });
});
