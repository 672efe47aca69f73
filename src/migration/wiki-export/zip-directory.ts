// Finds one entry of a zip archive through its central directory, without a zip library: the end record (or,
// for archives past 4 GB or 65,535 entries, the zip64 end record it points to) says where the directory is; the
// directory is read in windows of 1 MB, so an export with a million attachments costs no more memory than one
// with none; the entry's local header says where its data starts.
import type { FileHandle } from 'node:fs/promises';
import { WikiExportError } from './export-error.ts';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where the entry's data starts in the file. */
  dataOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const LOCATOR64 = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
const WINDOW = 1 << 20;

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buf.subarray(0, done);
}

const truncated = (what: string) =>
  new WikiExportError('truncated', `the zip is truncated or damaged: ${what}`);

/** Where the central directory is: its offset, size and number of entries. */
async function findDirectory(fh: FileHandle, fileSize: number) {
  const tailLength = Math.min(fileSize, 22 + MAX16 + 20);
  const tail = await readAt(fh, fileSize - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD && i + 22 + tail.readUInt16LE(i + 20) <= tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) throw truncated('no end-of-central-directory record at its end');
  let entries = tail.readUInt16LE(at + 10);
  let size = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  const locatorAt = at - 20;
  if (locatorAt >= 0 && tail.readUInt32LE(locatorAt) === LOCATOR64) {
    const record64At = Number(tail.readBigUInt64LE(locatorAt + 8));
    const record = await readAt(fh, record64At, 56);
    if (record.length < 56 || record.readUInt32LE(0) !== EOCD64) throw truncated('the zip64 end record is missing');
    entries = Number(record.readBigUInt64LE(32));
    size = Number(record.readBigUInt64LE(40));
    offset = Number(record.readBigUInt64LE(48));
  } else if (entries === MAX16 || size === MAX32 || offset === MAX32) {
    throw truncated('a zip64 archive without its zip64 end record');
  }
  if (offset + size > fileSize) throw truncated('the central directory runs past the end of the file');
  return { entries, size, offset };
}

/** Reads the zip64 extra field (tag 1): the 64-bit values of the fields whose 32-bit value is all ones. */
function applyZip64(extra: Buffer, fields: { size: number; compressedSize: number; localOffset: number }) {
  for (let p = 0; p + 4 <= extra.length; ) {
    const tag = extra.readUInt16LE(p);
    const len = extra.readUInt16LE(p + 2);
    if (tag === 1) {
      let q = p + 4;
      const next = () => {
        const v = Number(extra.readBigUInt64LE(q));
        q += 8;
        return v;
      };
      if (fields.size === MAX32) fields.size = next();
      if (fields.compressedSize === MAX32) fields.compressedSize = next();
      if (fields.localOffset === MAX32) fields.localOffset = next();
      return;
    }
    p += 4 + len;
  }
}

/**
 * The entry whose name is `wanted` (or ends with `/wanted`, for archives that put everything in a folder), or
 * undefined when the archive has none. Throws a one-line WikiExportError for a truncated or damaged archive.
 */
export async function findZipEntry(fh: FileHandle, fileSize: number, wanted: string): Promise<ZipEntry | undefined> {
  const dir = await findDirectory(fh, fileSize);
  let found: (ZipEntry & { localOffset: number }) | undefined;
  let window: Buffer = Buffer.alloc(0);
  let windowStart = dir.offset;
  let p = dir.offset;
  for (let n = 0; n < dir.entries; n++) {
    const need = async (length: number) => {
      if (p + length > windowStart + window.length) {
        windowStart = p;
        window = await readAt(fh, p, Math.max(length, Math.min(WINDOW, dir.offset + dir.size - p)));
        if (window.length < length) throw truncated('the central directory is cut short');
      }
      return window.subarray(p - windowStart, p - windowStart + length);
    };
    const h = await need(46);
    if (h.readUInt32LE(0) !== CENTRAL) throw truncated('a central directory entry is damaged');
    const nameLength = h.readUInt16LE(28);
    const extraLength = h.readUInt16LE(30);
    const commentLength = h.readUInt16LE(32);
    const flags = h.readUInt16LE(8);
    const fields = { method: h.readUInt16LE(10), crc: h.readUInt32LE(16), compressedSize: h.readUInt32LE(20),
      size: h.readUInt32LE(24), localOffset: h.readUInt32LE(42) };
    const rest = Buffer.from(await need(46 + nameLength + extraLength)).subarray(46);
    p += 46 + nameLength + extraLength + commentLength;
    const name = rest.subarray(0, nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
    if (name !== wanted && !name.endsWith(`/${wanted}`)) continue;
    if (found && name !== wanted) continue;
    applyZip64(rest.subarray(nameLength), fields);
    if (flags & 1) throw new WikiExportError('unsupported-zip', `${name} in the zip is encrypted`);
    if (fields.method !== 0 && fields.method !== 8) {
      throw new WikiExportError('unsupported-zip', `${name} is compressed with method ${fields.method} (only stored and deflated are read)`);
    }
    found = { name, ...fields, dataOffset: 0 };
    if (name === wanted) break;
  }
  if (!found) return undefined;
  const local = await readAt(fh, found.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) throw truncated(`the local header of ${found.name} is damaged`);
  found.dataOffset = found.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (found.dataOffset + found.compressedSize > fileSize) throw truncated(`${found.name}'s data runs past the end of the file`);
  const { localOffset: _ignored, ...entry } = found;
  return entry;
}
