/**
 * Reading the CSV of a sync (RFC 4180) as it arrives: fields separated by commas, records by CRLF or LF, a
 * quoted field may hold commas, quotes (doubled) and line breaks. Each record is handed on with the line it
 * starts on as soon as it ends, so the reader keeps one record at most; a field longer than `maxCell`, or more
 * than `maxCells` fields, ends the reading with a CsvError naming the record's line (a bounded record, whatever
 * is sent). A UTF-8 byte order mark is dropped by the upload's decoder.
 */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CsvBounds {
  maxCell: number;
  maxCells: number;
  /** The message of a field over maxCell. */
  tooLong?: string;
}

export class CsvReader {
  private cells: string[] = [];
  private cell = '';
  /** start: nothing of the field read; plain; quoted (inside quotes); quote (a quote inside quotes, maybe doubled); after (closed). */
  private state: 'start' | 'plain' | 'quoted' | 'quote' | 'after' = 'start';
  private line = 1;
  private recordLine = 1;
  private started = false;
  /** The record ended with CR: an LF right after it belongs to it. */
  private cr = false;

  constructor(
    private readonly onRecord: (r: CsvRecord) => void,
    private readonly bounds: CsvBounds,
  ) {}

  push(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.cr) {
        this.cr = false;
        if (c === '\n') continue;
      }
      if (!this.started) {
        this.started = true;
        this.recordLine = this.line;
      }
      if (this.state === 'quote') {
        if (c === '"') {
          this.add('"');
          this.state = 'quoted';
          continue;
        }
        this.state = 'after';
      }
      if (this.state === 'quoted') {
        if (c === '"') this.state = 'quote';
        else {
          if (c === '\n') this.line++;
          this.add(c);
        }
        continue;
      }
      if (c === ',') this.endCell();
      else if (c === '\r' || c === '\n') {
        this.endRecord();
        this.cr = c === '\r';
      } else if (this.state === 'after') {
        throw new CsvError(this.line, 'a quoted field is followed by text other than a comma or a line end');
      } else if (c === '"' && this.state === 'start') this.state = 'quoted';
      else {
        this.state = 'plain';
        this.add(c);
      }
    }
  }

  end(): void {
    if (this.state === 'quoted') throw new CsvError(this.recordLine, 'a quoted field is not closed');
    if (this.started) this.endRecord();
  }

  private add(c: string): void {
    if (this.cell.length >= this.bounds.maxCell) throw new CsvError(this.recordLine, this.bounds.tooLong ?? `a field longer than ${this.bounds.maxCell} characters`);
    this.cell += c;
  }

  private endCell(): void {
    if (this.cells.length >= this.bounds.maxCells) throw new CsvError(this.recordLine, `more than ${this.bounds.maxCells} fields`);
    this.cells.push(this.cell);
    this.cell = '';
    this.state = 'start';
  }

  private endRecord(): void {
    this.endCell();
    const cells = this.cells;
    this.cells = [];
    this.line++;
    this.started = false;
    // A blank line (one empty field) is handed on too: the caller counts lines against its limit.
    this.onRecord({ line: this.recordLine, cells });
  }
}

/** A whole text at once (tests, small files): the records, or the line and message of the first error. */
export function parseCsv(text: string, bounds: CsvBounds = { maxCell: Number.MAX_SAFE_INTEGER, maxCells: Number.MAX_SAFE_INTEGER }): { records: CsvRecord[] } | { error: { line: number; message: string } } {
  const records: CsvRecord[] = [];
  const reader = new CsvReader((r) => {
    if (!(r.cells.length === 1 && r.cells[0] === '')) records.push(r);
  }, bounds);
  try {
    reader.push(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    reader.end();
  } catch (err) {
    if (err instanceof CsvError) return { error: { line: err.line, message: err.message } };
    throw err;
  }
  return { records };
}
