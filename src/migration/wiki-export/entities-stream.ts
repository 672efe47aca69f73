// The bytes of a space export's entities.xml as a stream of chunks, from the zip the wiki writes (found through
// the central directory, inflated on the way) or from a bare entities.xml. Never the whole file in memory: an
// export runs to gigabytes. The inflated length and CRC are checked against the archive's, so a damaged entry
// is an error that says so rather than a parse error somewhere in the middle.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { crc32, createInflateRaw } from 'node:zlib';
import { WikiExportError } from './export-error.ts';
import { findZipEntry, type ZipEntry } from './zip-directory.ts';

export interface EntitiesInput {
  /** 'zip' or 'xml' (a bare entities.xml). */
  kind: 'zip' | 'xml';
  /** Size of entities.xml in bytes, for progress. */
  size: number;
  chunks(): AsyncIterable<Buffer>;
}

const CHUNK = 1 << 16;

/** Opens `file` and tells a zip from a bare entities.xml; throws a one-line WikiExportError when it is neither. */
export async function openEntities(file: string): Promise<EntitiesInput> {
  const name = basename(file);
  const fh = await open(file, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new WikiExportError('unreadable', `cannot read ${name}: ${err.code === 'ENOENT' ? 'no such file' : err.code ?? err.message}`);
  });
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    const magic = head.readUInt32LE(0);
    if (magic === 0x04034b50 || magic === 0x06054b50) {
      const entry = await findZipEntry(fh, size, 'entities.xml');
      if (!entry) throw new WikiExportError('no-entities', `${name} is a zip without entities.xml: not a wiki space export`);
      return { kind: 'zip', size: entry.size, chunks: () => entryChunks(file, entry) };
    }
    if (size === 0) throw new WikiExportError('not-export', `${name} is empty`);
    return { kind: 'xml', size, chunks: () => createReadStream(file, { highWaterMark: CHUNK }) };
  } finally {
    await fh.close();
  }
}

async function* entryChunks(file: string, entry: ZipEntry): AsyncGenerator<Buffer> {
  if (entry.compressedSize === 0) {
    if (entry.size !== 0) throw new WikiExportError('truncated', `${entry.name} in the zip is damaged: no data`);
    return;
  }
  const raw = createReadStream(file, {
    start: entry.dataOffset,
    end: entry.dataOffset + entry.compressedSize - 1,
    highWaterMark: CHUNK,
  });
  const inflate = entry.method === 8 ? createInflateRaw({ chunkSize: CHUNK }) : undefined;
  const source = inflate ? raw.pipe(inflate) : raw;
  raw.on('error', (err) => inflate?.destroy(err));
  let crc = 0;
  let length = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      crc = crc32(chunk, crc);
      length += chunk.length;
      // More than the archive says it holds: stop now, not once a crafted entry has inflated without end.
      if (length > entry.size) {
        throw new WikiExportError('truncated', `${entry.name} in the zip is damaged: it inflates past the ${entry.size} bytes the zip says it holds`);
      }
      yield chunk;
    }
  } catch (err) {
    if (err instanceof WikiExportError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const why = code === 'Z_BUF_ERROR' ? 'its compressed data ends early' : `its compressed data is damaged (${(err as Error).message})`;
    throw new WikiExportError('truncated', `${entry.name} in the zip is truncated or damaged: ${why}`);
  } finally {
    raw.destroy();
    inflate?.destroy();
  }
  if (length !== entry.size) {
    throw new WikiExportError('truncated', `${entry.name} in the zip is truncated or damaged: ${length} bytes where the zip says ${entry.size}`);
  }
  if (crc !== entry.crc) throw new WikiExportError('truncated', `${entry.name} in the zip is damaged: its CRC does not match`);
}
