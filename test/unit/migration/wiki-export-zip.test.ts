// The export reader's way into a file: entities.xml found through a zip's central directory (plain and zip64,
// stored and deflated, at the top or in a folder) or a bare entities.xml, streamed; and the files that are not
// exports, each refused with one line that names the cause.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEntities } from '../../../src/migration/wiki-export/entities-stream.ts';
import { WikiExportError } from '../../../src/migration/wiki-export/export-error.ts';
import { buildEntitiesXml, writeExportZip, type ExportDescription } from '../../helpers/wiki-export-builder.ts';
import { ZipFileWriter } from '../../helpers/zip-writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'wiki-export-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (name = 'export.zip') => join(dir, `${n++}-${name}`);

const desc: ExportDescription = {
  spaces: [{ id: 1, key: 'OPS', name: 'Ops', pages: [{ id: 10, title: 'Home', body: `<p>${'lorem ipsum '.repeat(20_000)}</p>` }] }],
};
const xml = buildEntitiesXml(desc);

async function readAll(path: string): Promise<string> {
  const input = await openEntities(path);
  const parts: Buffer[] = [];
  for await (const chunk of input.chunks()) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

async function failure(path: string, read = true): Promise<WikiExportError> {
  try {
    if (read) await readAll(path);
    else await openEntities(path);
  } catch (err) {
    expect(err).toBeInstanceOf(WikiExportError);
    expect((err as Error).message).not.toContain('\n');
    return err as WikiExportError;
  }
  throw new Error('expected a WikiExportError');
}

describe('finding entities.xml', () => {
  it.each([
    ['deflated', {}],
    ['stored', { method: 'store' as const }],
    ['deflated, zip64 records', { zip64: true }],
    ['stored, zip64 records', { zip64: true, method: 'store' as const }],
  ])('reads it from a zip (%s), in chunks, as written', async (_label, opts) => {
    const path = file();
    writeExportZip(path, desc, opts);
    const input = await openEntities(path);
    expect(input.kind).toBe('zip');
    expect(input.size).toBe(Buffer.byteLength(xml));
    let chunks = 0;
    const parts: Buffer[] = [];
    for await (const c of input.chunks()) {
      chunks++;
      parts.push(c);
    }
    expect(chunks).toBeGreaterThan(1);
    expect(Buffer.concat(parts).toString('utf8')).toBe(xml);
  });

  it('finds it in a folder of the zip', async () => {
    const path = file();
    const zip = new ZipFileWriter(path);
    zip.addEntry('space/exportDescriptor.properties', ['exportType=space\n']);
    zip.addEntry('space/entities.xml', [xml]);
    zip.close();
    expect(await readAll(path)).toBe(xml);
  });

  it('reads a bare entities.xml', async () => {
    const path = file('entities.xml');
    writeFileSync(path, xml);
    const input = await openEntities(path);
    expect(input.kind).toBe('xml');
    expect(await readAll(path)).toBe(xml);
  });
});

describe('files that are not exports', () => {
  it('a missing file', async () => {
    const err = await failure(join(dir, 'nothing-here.zip'), false);
    expect(err.kind).toBe('unreadable');
    expect(err.message).toBe('cannot read nothing-here.zip: no such file');
  });

  it('an empty file', async () => {
    const path = file('empty.xml');
    writeFileSync(path, '');
    expect((await failure(path, false)).message).toMatch(/is empty$/);
  });

  it('a zip without entities.xml', async () => {
    const path = file('other.zip');
    writeExportZip(path, desc, { withoutEntities: true });
    const err = await failure(path, false);
    expect(err.kind).toBe('no-entities');
    expect(err.message).toMatch(/other\.zip is a zip without entities\.xml: not a wiki space export/);
  });

  it.each([0.05, 0.3, 0.6, 0.95, 0.999])('a zip cut at %s of its length', async (at) => {
    const whole = file();
    writeExportZip(whole, desc);
    const bytes = readFileSync(whole);
    const path = file('cut.zip');
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * at)));
    const err = await failure(path);
    expect(err.kind).toBe('truncated');
    expect(err.message).toMatch(/^the zip is truncated or damaged: /);
  });

  it('a zip whose entities.xml data is damaged', async () => {
    const path = file();
    writeExportZip(path, desc, { method: 'store' });
    const bytes = readFileSync(path);
    const at = bytes.indexOf('lorem ipsum');
    bytes.write('LOREM', at, 'latin1');
    writeFileSync(path, bytes);
    const err = await failure(path);
    expect(err.kind).toBe('truncated');
    expect(err.message).toBe('entities.xml in the zip is damaged: its CRC does not match');
  });

  it.each([
    ['compressed with a method it does not read', 10, 12, /^entities\.xml is compressed with method 12 \(only stored and deflated are read\)$/],
    ['encrypted', 8, 0x0809, /^entities\.xml in the zip is encrypted$/],
  ])('a zip whose entities.xml is %s', async (_label, field, value, message) => {
    const path = file();
    writeExportZip(path, desc);
    const bytes = readFileSync(path);
    // The central directory entry of entities.xml: its name follows the 46-byte fixed part.
    const name = bytes.lastIndexOf('entities.xml');
    bytes.writeUInt16LE(value, name - 46 + field);
    writeFileSync(path, bytes);
    const err = await failure(path, false);
    expect(err.kind).toBe('unsupported-zip');
    expect(err.message).toMatch(message);
  });

  it('a zip whose entities.xml inflates past the size it declares stops there (a crafted entry cannot inflate without end)', async () => {
    const path = file();
    writeExportZip(path, desc);
    const bytes = readFileSync(path);
    const name = bytes.lastIndexOf('entities.xml');
    // The central directory's uncompressed size (offset 24 of its fixed part): 100 bytes, far less than the data.
    bytes.writeUInt32LE(100, name - 46 + 24);
    writeFileSync(path, bytes);
    const input = await openEntities(path);
    let read = 0;
    const err = await (async () => {
      for await (const chunk of input.chunks()) read += chunk.length;
    })().catch((e: unknown) => e as WikiExportError);
    expect(err).toBeInstanceOf(WikiExportError);
    expect((err as WikiExportError).message).toBe('entities.xml in the zip is damaged: it inflates past the 100 bytes the zip says it holds');
    expect(read).toBe(0);
  });

  it('a zip whose deflated data is garbage', async () => {
    const path = file();
    writeExportZip(path, desc);
    const bytes = readFileSync(path);
    const start = bytes.indexOf('entities.xml') + 'entities.xml'.length + 20;
    bytes.fill(0xff, start, start + 64);
    writeFileSync(path, bytes);
    const err = await failure(path);
    expect(err.message).toMatch(/^entities\.xml in the zip is truncated or damaged: /);
  });
});
