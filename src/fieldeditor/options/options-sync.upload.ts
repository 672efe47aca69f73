import type { Request } from 'express';
import type { FieldProblem } from '../../platform/http/app-error.ts';
import { unsupportedMediaType } from '../../platform/http/platform.errors.ts';
import { uploadChunks } from '../../platform/http/upload.ts';
import { CsvForestReader, type CsvFile } from './options-sync.csv.ts';
import type { FileNode } from './options-sync.input.ts';
import { JsonForestReader } from './options-sync.json.ts';

/** The file of a sync as read: JSON as its forest, CSV as its rows (their parents are found against the tree). */
export type SyncFile = ({ forest: FileNode[] } | { csv: CsvFile }) & { problems: FieldProblem[] };

/** The bytes a sync's file may have (the 100,000 options of an export, with room for long names). */
export const SYNC_UPLOAD_LIMIT = 32 * 1024 * 1024;

/**
 * Reads a sync's upload (issue 44), called once the caller's right is decided: chunk by chunk into the reader of
 * its type, which keeps the options and stops at the first bound (400 naming the option or row), so memory
 * follows the options accepted, not the bytes sent. `levels`: how deep the field's options go.
 */
export function readSyncFile(req: Request, type: string, levels: number): Promise<SyncFile> {
  if (type !== 'text/csv' && type !== 'application/json') throw unsupportedMediaType(type || 'none');
  return readSyncText(uploadChunks(req, SYNC_UPLOAD_LIMIT), type === 'text/csv' ? 'csv' : 'json', levels);
}

/** A sync's file from its text in parts (an upload's chunks; the command line's file). */
export async function readSyncText(chunks: AsyncIterable<string> | Iterable<string>, format: 'csv' | 'json', levels: number): Promise<SyncFile> {
  const problems: FieldProblem[] = [];
  const reader = format === 'csv' ? new CsvForestReader(levels, problems) : new JsonForestReader(levels, problems);
  for await (const chunk of chunks) reader.push(chunk);
  const read = reader.end();
  return Array.isArray(read) ? { forest: read, problems } : { csv: read, problems };
}
