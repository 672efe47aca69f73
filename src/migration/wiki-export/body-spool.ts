// Bodies of an export go to a temporary file as the first pass meets them, and are read back one at a time
// when the space writer asks: what stays in memory is an offset and a length per body, so reading an export of
// gigabytes costs about as much memory as reading a small one. Appends are buffered and written synchronously
// (the XML parser's callbacks are synchronous); reads are positional.
import { closeSync, mkdtempSync, openSync, read, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const readAt = promisify(read);
const FLUSH_AT = 1 << 20;

export interface SpoolSlice {
  offset: number;
  length: number;
}

export class BodySpool {
  private readonly dir: string;
  private fd: number | undefined;
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private written = 0;

  private removed = false;

  /** `parent`: where the spool's folder goes (the system's temporary folder by default). */
  constructor(parent = tmpdir()) {
    this.dir = mkdtempSync(join(parent, 'addon-pair-export-'));
    this.fd = openSync(join(this.dir, 'bodies'), 'w+', 0o600);
    // Removed at once, kept open: the file lives as long as the descriptor, so a run that is killed (Ctrl-C, a
    // crash) or never closes leaves no gigabyte behind. Where an open file cannot be removed, close() does it.
    try {
      rmSync(this.dir, { recursive: true });
      this.removed = true;
    } catch {
      this.removed = false;
    }
  }

  /** Appends a body and answers where it is. */
  append(text: string): SpoolSlice {
    const buf = Buffer.from(text, 'utf8');
    const slice = { offset: this.size, length: buf.length };
    this.size += buf.length;
    this.pending.push(buf);
    this.pendingBytes += buf.length;
    if (this.pendingBytes >= FLUSH_AT) this.flush();
    return slice;
  }

  /** Writes what is buffered (before reading, and when the first pass ends). */
  flush(): void {
    if (this.fd === undefined || this.pendingBytes === 0) return;
    const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    let done = 0;
    while (done < data.length) done += writeSync(this.fd, data, done, data.length - done, this.written + done);
    this.written += data.length;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Bytes spooled so far. */
  get bytes(): number {
    return this.size;
  }

  async read(slice: SpoolSlice): Promise<string> {
    if (this.fd === undefined) throw new Error('the export has been closed');
    if (slice.offset + slice.length > this.written) this.flush();
    const buf = Buffer.alloc(slice.length);
    let done = 0;
    while (done < slice.length) {
      const { bytesRead } = await readAt(this.fd, buf, done, slice.length - done, slice.offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buf.toString('utf8', 0, done);
  }

  /** Closes the temporary file (which frees its room) and removes it if it is still there. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.pending = [];
    if (!this.removed) rmSync(this.dir, { recursive: true, force: true });
  }
}
