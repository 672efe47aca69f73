/**
 * Reading the CSV of a sync (RFC 4180): fields separated by commas, records by CRLF or LF, a quoted field may
 * hold commas, quotes (doubled) and line breaks. A UTF-8 byte order mark in front is skipped (the export
 * writes one for Excel). Answers the records with the line each starts on, or the line of a broken quote.
 */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export function parseCsv(text: string): { records: CsvRecord[] } | { error: { line: number; message: string } } {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) return { error: { line: start, message: 'a quoted field is not closed' } };
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          cell += c;
          i++;
        }
        if (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          return { error: { line, message: 'a quoted field is followed by text other than a comma or a line end' } };
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') cell += text[i++];
      }
      cells.push(cell);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      line++;
      break;
    }
    // A blank line (one empty cell) is no record.
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: start, cells });
  }
  return { records };
}
