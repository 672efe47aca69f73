// A wiki space export (the zip the wiki's "XML export" writes, or its bare entities.xml) as a WikiSource. The
// whole file is read once, up front, so that a damaged or foreign file fails before anything is written: small
// facts stay in memory, bodies go to a temporary spool, and each space is then handed out with its content in
// import order and its bodies read from the spool on demand. `close()` removes the spool.
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import type { SourceSpaceBundle, WikiSource } from '../wiki/space-model.ts';
import { BodySpool } from './body-spool.ts';
import { openEntities } from './entities-stream.ts';
import { WikiExportError } from './export-error.ts';
import { ExportIndex, type ContentMeta, type SpaceMeta } from './export-index.ts';
import { readExportObjects } from './object-reader.ts';
import { assembleSpace } from './space-assembly.ts';

export interface OpenWikiExportOptions {
  progress: (message: string) => void;
  /** Where the bodies are spooled while the export is open (the system's temporary folder by default); an
   *  export's bodies take about as much room as its entities.xml. */
  tmpDir?: string;
  /** The longest node (text, CDATA) entities.xml may hold, in characters (WIKI_EXPORT_MAX_TEXT_MB; object-reader.ts). */
  maxTextChars?: number;
}

const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(n < 10 * MB ? 1 : 0);

/** Reads `file` and answers its spaces; throws a one-line WikiExportError when it is not a readable export. */
export async function openWikiExport(file: string, opts: OpenWikiExportOptions): Promise<WikiSource> {
  const name = basename(file);
  const input = await openEntities(file);
  opts.progress(`reading ${name}: entities.xml, ${mb(input.size)} MB${input.kind === 'zip' ? ' inflated' : ''}`);
  const spool = new BodySpool(opts.tmpDir);
  const index = new ExportIndex(spool);
  const stats = { droppedOutside: 0 };
  const started = Date.now();
  try {
    for await (const o of readExportObjects(counted(input.chunks(), input.size, opts.progress), stats, 'entities.xml', opts.maxTextChars)) index.add(o);
    spool.flush();
    index.finish();
    if (index.spaces.size === 0) {
      throw new WikiExportError('not-export', `${name} holds no Space object: not a wiki space export`);
    }
  } catch (err) {
    spool.close();
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') {
      throw new WikiExportError('no-room', `no room left in ${opts.tmpDir ?? tmpdir()} for the export's bodies (they take about as much as entities.xml): free some, or point TMPDIR elsewhere`);
    }
    throw err;
  }
  const kinds = countKinds(index.content.values());
  opts.progress(
    `read ${index.objects} objects in ${((Date.now() - started) / 1000).toFixed(1)} s: ${index.spaces.size} space(s), ` +
      `${kinds.page} pages, ${kinds.blogpost} blog posts, ${kinds.comment} comments; ${mb(spool.bytes)} MB of bodies spooled`,
  );
  let closed = false;
  return {
    label: `export ${name}`,
    spaces: (keys) => bundles(index, spool, keys, stats.droppedOutside + index.droppedElsewhere, () => closed),
    async close() {
      closed = true;
      spool.close();
    },
  };
}

async function* counted(chunks: AsyncIterable<Buffer>, size: number, progress: (m: string) => void) {
  const step = Math.max(64 * MB, Math.ceil(size / 10));
  let read = 0;
  let next = step;
  for await (const chunk of chunks) {
    read += chunk.length;
    if (read >= next && read < size) {
      progress(`read ${mb(read)} of ${mb(size)} MB`);
      next += step;
    }
    yield chunk;
  }
}

function countKinds(content: Iterable<ContentMeta>) {
  const kinds = { page: 0, blogpost: 0, comment: 0, description: 0 };
  for (const c of content) if (c.status === 'current') kinds[c.kind]++;
  return kinds;
}

/** The spaces asked for (all when `keys` is empty), by key in any case. A key the export does not hold is
 *  left out: the space writer reports it as a failed unit, so the other spaces still import. */
function selectSpaces(index: ExportIndex, keys: readonly string[] | undefined): SpaceMeta[] {
  const all = [...index.spaces.values()].sort((a, b) => a.key.localeCompare(b.key));
  if (!keys || keys.length === 0) return all;
  return keys.flatMap((k) => {
    const s = all.find((x) => x.key === k) ?? all.find((x) => x.key.toLowerCase() === k.toLowerCase());
    return s ? [s] : [];
  });
}

async function* bundles(
  index: ExportIndex,
  spool: BodySpool,
  keys: readonly string[] | undefined,
  droppedOutside: number,
  isClosed: () => boolean,
): AsyncGenerator<SourceSpaceBundle> {
  const chosen = selectSpaces(index, keys);
  // Comments have no space of their own: theirs is their container's.
  const spaceOf = (c: ContentMeta): number | undefined =>
    c.kind === 'comment' ? (c.containerId === undefined ? undefined : index.content.get(c.containerId)?.spaceId) : c.spaceId;
  // Characters dropped outside any content (users, groups, space objects) count for the export's first space.
  let extra = droppedOutside;
  for (const space of chosen) {
    if (isClosed()) throw new Error('the export has been closed');
    yield await assembleSpace(index, spool, space, (c) => c.kind !== 'description' && spaceOf(c) === space.id, extra);
    extra = 0;
  }
}
