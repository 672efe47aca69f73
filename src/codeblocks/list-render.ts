// Response bodies of the download-list endpoints (E2 XML, E3 JSON) and their error bodies.
// Titles, section names and macro ids come from wiki pages and may hold `&`, entity look-alikes or `]]>`,
// so every XML body is written by the platform's one escaping writer (escaped exactly once, never CDATA),
// and every body parses with a strict XML 1.0 parser.
import { xmlDocument, type XmlNode } from '../platform/http/xml.ts';

export interface ContentRecord {
  contentId: number | string;
  contentTitle: string;
  contentType: string;
  spaceKey: string;
  macroId: string;
}

/** The record of the pageId generation (3.4.0 up to the contentId change). */
export interface PageRecord {
  pageId: number | string;
  pageName: string;
  spaceKey: string;
  macroId: string;
}

export interface ListedBlock {
  key: string;
  name: string;
  /** Absolute download URL; the caller builds it for the generation in use. */
  download: string;
}

export interface DownloadList {
  record: ContentRecord | PageRecord;
  /** Element/property name that wraps the record (the contract leaves `content` vs `page` open). */
  wrapper: 'content' | 'page';
  blocks: readonly ListedBlock[];
}

export interface ErrorBody {
  error: string;
  message: string;
  extraMessage?: string;
}

function recordFields(record: ContentRecord | PageRecord): [string, number | string][] {
  if ('contentId' in record) {
    const r = record;
    return [
      ['contentId', r.contentId],
      ['contentTitle', r.contentTitle],
      ['contentType', r.contentType],
      ['spaceKey', r.spaceKey],
      ['macroId', r.macroId],
    ];
  }
  return [
    ['pageId', record.pageId],
    ['pageName', record.pageName],
    ['spaceKey', record.spaceKey],
    ['macroId', record.macroId],
  ];
}

export function renderXmlList(list: DownloadList): string {
  const blocks: XmlNode[] = list.blocks.map((b) => [
    'codeBlock',
    [
      ['key', b.key],
      ['name', b.name],
      ['download', b.download],
    ],
  ]);
  return xmlDocument(['advancedCodeblockMacro', [[list.wrapper, recordFields(list.record)], ['codeBlocks', blocks]]]);
}

// Ids are digit strings in the host; the contract types them as JSON integers.
function jsonId(value: number | string): number | string {
  if (typeof value === 'number') return value;
  const n = Number(value);
  return /^\d+$/.test(value) && Number.isSafeInteger(n) ? n : value;
}

export function renderJsonList(list: DownloadList): string {
  const record = Object.fromEntries(
    recordFields(list.record).map(([k, v]) => [k, k === 'contentId' || k === 'pageId' ? jsonId(v) : v]),
  );
  const codeBlocks = list.blocks.map((b) => ({ key: b.key, name: b.name, download: b.download }));
  return JSON.stringify({ [list.wrapper]: record, codeBlocks });
}

function errorFields(body: ErrorBody): [string, string][] {
  const fields: [string, string][] = [
    ['error', body.error],
    ['message', body.message],
  ];
  if (body.extraMessage !== undefined) fields.push(['extraMessage', body.extraMessage]);
  return fields;
}

/** App error body: `<advancedCodeblockMacro><error/><message/>[<extraMessage/>]</…>`. */
export function renderXmlError(body: ErrorBody): string {
  return xmlDocument(['advancedCodeblockMacro', errorFields(body)]);
}

export function renderJsonError(body: ErrorBody): string {
  return JSON.stringify(Object.fromEntries(errorFields(body)));
}

/** Host-produced body (5.0.0 401s): `<status><status-code/><message/></status>`. */
export function renderXmlHostStatus(statusCode: number, message: string): string {
  return xmlDocument([
    'status',
    [
      ['status-code', statusCode],
      ['message', message],
    ],
  ]);
}

/** JSON form as the host's REST framework writes it: message first, then status-code. */
export function renderJsonHostStatus(statusCode: number, message: string): string {
  return JSON.stringify({ message, 'status-code': statusCode });
}
