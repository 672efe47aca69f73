// A small zip writer for tests and the wiki-export bench: the wiki's space export is a zip, and the reader under
// test must find its entry through the central directory (zip64 included) and inflate it as a stream. Written
// here rather than taken from a package, so the format the tests feed the reader is plain to see. Entries are
// stored or deflated; a deflated entry is compressed in batches (each batch a raw deflate stream ended by a sync
// flush, so the batches join into one stream), which lets the bench write hundreds of megabytes with bounded
// memory. Sizes and the CRC follow each entry in a data descriptor, as streaming zip writers do.
import { closeSync, openSync, writeSync } from 'node:fs';
import { constants, deflateRawSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (the zip polynomial), continued from `crc` (0 to start): a table in JS rather than zlib.crc32, which the
 *  reader checks with, so that the writer and the reader do not share one implementation. */
export function crc32(data: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

export interface ZipEntryOptions {
  /** 'deflate' (the default) or 'store'. */
  method?: 'deflate' | 'store';
}

export interface ZipWriterOptions {
  /** Write zip64 records (sizes and offsets in the zip64 extra field, the zip64 end records) even when small. */
  zip64?: boolean;
}

interface Written {
  name: Buffer;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

const BATCH = 1 << 20;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 2; // 2 January 2024
const DOS_TIME = (10 << 11) | (11 << 5) | 6;
const MAX32 = 0xffffffff;

/** Writes a zip to a file, one entry at a time, holding at most about one batch (1 MB) of an entry in memory. */
export class ZipFileWriter {
  private readonly fd: number;
  private position = 0;
  private readonly entries: Written[] = [];
  private readonly zip64: boolean;

  constructor(file: string, opts: ZipWriterOptions = {}) {
    this.fd = openSync(file, 'w');
    this.zip64 = opts.zip64 ?? false;
  }

  private write(buf: Buffer): void {
    let done = 0;
    while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done, this.position + done);
    this.position += buf.length;
  }

  /** Adds an entry whose content is the concatenation of `chunks` (strings are written as UTF-8). */
  addEntry(name: string, chunks: Iterable<string | Uint8Array>, opts: ZipEntryOptions = {}): void {
    const method = opts.method === 'store' ? 0 : 8;
    const nameBuf = Buffer.from(name, 'utf8');
    const offset = this.position;
    const extra = this.zip64 ? zip64Extra([0, 0]) : Buffer.alloc(0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(this.zip64 ? 45 : 20, 4);
    local.writeUInt16LE(0x0808, 6); // data descriptor follows; names are UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(0, 14);
    local.writeUInt32LE(this.zip64 ? MAX32 : 0, 18);
    local.writeUInt32LE(this.zip64 ? MAX32 : 0, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(extra.length, 28);
    this.write(Buffer.concat([local, nameBuf, extra]));

    let crc = 0;
    let size = 0;
    let compressed = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = (final: boolean) => {
      const data = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      crc = crc32(data, crc);
      size += data.length;
      const out =
        method === 0
          ? data
          : deflateRawSync(data, { finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH });
      compressed += out.length;
      this.write(out);
    };
    for (const chunk of chunks) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
      pending.push(buf);
      pendingBytes += buf.length;
      if (pendingBytes >= BATCH) flush(false);
    }
    flush(true);

    const big = this.zip64 || size > MAX32 || compressed > MAX32;
    const descriptor = Buffer.alloc(big ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    if (big) {
      descriptor.writeBigUInt64LE(BigInt(compressed), 8);
      descriptor.writeBigUInt64LE(BigInt(size), 16);
    } else {
      descriptor.writeUInt32LE(compressed, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    this.write(descriptor);
    this.entries.push({ name: nameBuf, method, crc, compressed, size, offset });
  }

  /** Writes the central directory and the end records, and closes the file. */
  close(): void {
    const cdOffset = this.position;
    for (const e of this.entries) {
      const big = this.zip64 || e.size > MAX32 || e.compressed > MAX32 || e.offset > MAX32;
      const extra = big ? zip64Extra([e.size, e.compressed, e.offset]) : Buffer.alloc(0);
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(45, 4);
      h.writeUInt16LE(big ? 45 : 20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(e.method, 10);
      h.writeUInt16LE(DOS_TIME, 12);
      h.writeUInt16LE(DOS_DATE, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(big ? MAX32 : e.compressed, 20);
      h.writeUInt32LE(big ? MAX32 : e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt16LE(extra.length, 30);
      h.writeUInt32LE(big ? MAX32 : e.offset, 42);
      this.write(Buffer.concat([h, e.name, extra]));
    }
    const cdSize = this.position - cdOffset;
    const count = this.entries.length;
    if (this.zip64 || cdOffset > MAX32) {
      const eocd64Offset = this.position;
      const r = Buffer.alloc(56);
      r.writeUInt32LE(0x06064b50, 0);
      r.writeBigUInt64LE(44n, 4);
      r.writeUInt16LE(45, 12);
      r.writeUInt16LE(45, 14);
      r.writeBigUInt64LE(BigInt(count), 24);
      r.writeBigUInt64LE(BigInt(count), 32);
      r.writeBigUInt64LE(BigInt(cdSize), 40);
      r.writeBigUInt64LE(BigInt(cdOffset), 48);
      const loc = Buffer.alloc(20);
      loc.writeUInt32LE(0x07064b50, 0);
      loc.writeBigUInt64LE(BigInt(eocd64Offset), 8);
      loc.writeUInt32LE(1, 16);
      this.write(Buffer.concat([r, loc]));
    }
    const end = Buffer.alloc(22);
    const z = this.zip64 || cdOffset > MAX32;
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(z ? 0xffff : count, 8);
    end.writeUInt16LE(z ? 0xffff : count, 10);
    end.writeUInt32LE(z ? MAX32 : cdSize, 12);
    end.writeUInt32LE(z ? MAX32 : cdOffset, 16);
    this.write(end);
    closeSync(this.fd);
  }
}

/** The zip64 extended-information extra field (tag 1) with the given 64-bit values. */
function zip64Extra(values: number[]): Buffer {
  const buf = Buffer.alloc(4 + 8 * values.length);
  buf.writeUInt16LE(0x0001, 0);
  buf.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, i) => buf.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  return buf;
}
