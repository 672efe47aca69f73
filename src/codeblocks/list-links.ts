// Turns a box listing into the list body of one generation: the record (`content` or `page`) and the
// absolute download links. XML links point at the legacy servlet path (which redirects to E1), JSON links
// at /rest/advancedcodeblocks/1/code (which answers like E1); both carry key, pageId and macroId.
import { PATHS, REST_BASE, type Generation } from './generation.ts';
import type { DownloadList, ListedBlock } from './list-render.ts';
import type { BoxListing } from './download.service.ts';

function linkQuery(key: string, contentId: number, macroId: string): string {
  return `key=${encodeURIComponent(key)}&pageId=${contentId}&macroId=${encodeURIComponent(macroId)}`;
}

export function toDownloadList(gen: Generation, listing: BoxListing, baseUrl: string, format: 'xml' | 'json'): DownloadList {
  const { content, macroId } = listing;
  const target = format === 'xml' ? `${baseUrl}${PATHS.servletCode}` : `${baseUrl}${REST_BASE}${PATHS.code}`;
  const blocks: ListedBlock[] = listing.blocks.map((b) => ({
    key: b.key,
    name: b.name,
    download: `${target}?${linkQuery(b.key, content.id, macroId)}`,
  }));
  const record =
    gen.wrapper === 'content'
      ? { contentId: content.id, contentTitle: content.title, contentType: content.type, spaceKey: content.spaceKey, macroId }
      : { pageId: content.id, pageName: content.title, spaceKey: content.spaceKey, macroId };
  return { record, wrapper: gen.wrapper, blocks };
}
