import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import type { FieldAccess } from '../access/access.service.ts';
import type { ScopeIds } from '../access/ids.ts';
import { fieldTypeRefusal } from './option-scope.ts';
import { csvWriter, jsonWriter } from './options-export.format.ts';
import { treeTag } from './options-tag.ts';
import { fetchTreePage, listVersions, openTreeCursor } from './options-tree.repository.ts';

/** Where an export goes (the HTTP answer, a file of the command line), told the tag first. */
export interface ExportSink {
  /** Headers of the answer; false: nothing more is wanted (a 304 for a matching If-None-Match). */
  begin(meta: { etag: string; contentType: string; fileName: string }): boolean;
  /** Resolves once the text may be followed by more (backpressure); false when the receiver went away. */
  write(text: string): Promise<boolean>;
  /** Rows written so far, for progress. */
  progress?(rows: number): void;
}

export interface ExportRequest {
  format: 'json' | 'csv';
  /** CSV only: a UTF-8 byte order mark first (default true). */
  bom: boolean;
}

/** Rows fetched from the cursor per round trip. */
const PAGE = 1000;

/**
 * GET options/export (issue 27): a context's whole option tree as JSON or CSV, streamed: one repeatable-read
 * transaction gives the tag and a cursor the same snapshot, and pages of the cursor are written as the
 * receiver takes them, so the export needs memory for one page whatever the size of the tree. The caller's
 * right is the list read's (FieldAccess.readable).
 */
export class OptionsExport {
  constructor(
    private readonly knex: Knex,
    private readonly access: FieldAccess,
  ) {}

  async run(user: AuthUser, ids: ScopeIds, req: ExportRequest, sink: ExportSink): Promise<void> {
    const { field, context } = await this.access.readable(user, ids);
    const refusal = fieldTypeRefusal({ field, context, parentId: null });
    if (refusal) throw refusal;
    const writer = req.format === 'csv' ? csvWriter(req.bom) : jsonWriter(field.id, context.id);
    await this.knex.transaction(
      async (trx) => {
        const etag = treeTag(context.id, await listVersions(trx, context.id));
        const fileName = `options-${field.id}-${context.id}.${writer.extension}`;
        if (!sink.begin({ etag, contentType: writer.contentType, fileName })) return;
        await openTreeCursor(trx, context.id);
        let text = writer.start();
        let rows = 0;
        for (;;) {
          const page = await fetchTreePage(trx, PAGE);
          for (const r of page) text += writer.row(r);
          rows += page.length;
          sink.progress?.(rows);
          if (page.length < PAGE) break;
          if (!(await sink.write(text))) return;
          text = '';
        }
        await sink.write(text + writer.end());
      },
      { isolationLevel: 'repeatable read' },
    );
  }
}
