import { joinPath } from './option-path.ts';
import type { TreeRow } from './options-tree.repository.ts';

/**
 * The two export formats (issue 27), written row by row from the depth-first tree (options-tree.repository.ts),
 * so the export streams whatever the size. docs/fieldeditor-api.md, "Export and sync", describes both.
 */
export interface TreeWriter {
  readonly contentType: string;
  readonly extension: 'json' | 'csv';
  start(): string;
  row(r: TreeRow): string;
  end(): string;
}

/** Cells a spreadsheet would run as a formula (and `'`, so that the prefix below is always taken off again). */
const FORMULA_START = /^[=+\-@\t\r']/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A text that a spreadsheet
 * would take for a formula (`=`, `+`, `-`, `@`, tab, CR) gets a `'` in front and is quoted: Excel and
 * LibreOffice show it as text. The sync takes one leading `'` off the path again (options-csv.ts).
 */
export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return safe !== text || /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const CSV_COLUMNS = ['id', 'path', 'disabled', 'position', 'default'] as const;

/** `id,path,disabled,position,default`, CRLF line ends, UTF-8 with a byte order mark unless `bom` is false (Excel needs it to read UTF-8). */
export const csvWriter = (bom: boolean): TreeWriter => ({
  contentType: 'text/csv; charset=utf-8; header=present',
  extension: 'csv',
  start: () => `${bom ? '\uFEFF' : ''}${CSV_COLUMNS.join(',')}\r\n`,
  row: (r) => `${r.id},${csvCell(joinPath(r.names))},${r.disabled},${r.seq},${r.is_default}\r\n`,
  end: () => '',
});

/** `{"fieldId", "contextId", "options": [{"id", "optionvalue", "disabled", "position", "default", "children": […]}]}`. */
export function jsonWriter(fieldId: number, contextId: number): TreeWriter {
  let open = 0;
  let comma = false;
  const close = (to: number) => {
    let out = '';
    for (; open > to; open--) out += ']}';
    return out;
  };
  return {
    contentType: 'application/json; charset=utf-8',
    extension: 'json',
    start: () => `{"fieldId":${fieldId},"contextId":${contextId},"options":[`,
    row: (r) => {
      let out = '';
      if (open > r.depth) {
        out += close(r.depth);
        comma = true;
      }
      if (comma) out += ',';
      out += `{"id":${r.id},"optionvalue":${JSON.stringify(r.value)},"disabled":${r.disabled},"position":${r.seq},"default":${r.is_default},"children":[`;
      open++;
      comma = false;
      return out;
    },
    end: () => `${close(0)}]}`,
  };
}
