// Core reader for wiki storage XHTML (the `ac:`/`ri:`/`at:` dialect): finds structured macros.
// Real documents are fragments: several top-level nodes, undeclared prefixes, HTML named
// entities. We therefore parse `<wrapper>` + document + `</wrapper>` with the three
// prefixes pre-bound, and translate every parser position back to the caller's text.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { XHTML_ENTITIES } from './storage-entities.ts';
import { makeLocator } from './storage-locate.ts';

export const MAX_STORAGE_BYTES = 5 * 1024 * 1024;
export const MAX_STORAGE_DEPTH = 200;

export const AC_NS = 'http://atlassian.com/content';
const NAMESPACES = {
  ac: AC_NS,
  ri: 'http://atlassian.com/resource/identifier',
  at: 'http://atlassian.com/template',
};

const ROOT = 'addon-pair-storage-root';
const PREFIX = `<${ROOT}>`;
const SUFFIX = `</${ROOT}>`;

export type BodyKind = 'plain' | 'rich' | 'none';

export interface MacroInfo {
  name: string;
  macroId: string | undefined;
  /** Direct `ac:parameter` children; text content with entities decoded; a repeated name: last wins. */
  parameters: Record<string, string>;
  /** plain: the `ac:plain-text-body` text (CDATA decoded, XML line-end normalised); rich: the
   *  inner storage XHTML of `ac:rich-text-body`, verbatim; none: undefined. */
  body: string | undefined;
  bodyKind: BodyKind;
  /** Position in document order (start tags), nested macros included. */
  index: number;
  /** Index of the closest enclosing macro, if any. */
  parentIndex: number | undefined;
  /** Qualified names of the enclosing elements, outermost first. */
  path: string[];
  /** Offsets into the parsed text: `<` of the start tag, just after its `>`, just after the end tag. */
  start: number;
  startTagEnd: number;
  end: number;
  selfClosing: boolean;
  /** 1-based line and column (UTF-16 code units) of the start tag's `<`. */
  line: number;
  column: number;
}

export interface StorageDoc {
  macros: MacroInfo[];
}

/** Where, inside a macro's start tag, its id attribute sits (for rewriting). */
export interface MacroTagDetail {
  prefix: string;
  idAttribute: string | undefined;
}

export class StorageFormatError extends Error {
  override readonly name = 'StorageFormatError';
  constructor(
    readonly detail: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line === undefined ? detail : `line ${line}, column ${column}: ${detail}`);
  }
}

interface Frame {
  qname: string;
  start: number;
  macro?: MacroInfo;
  role?: 'param' | 'plain' | 'rich';
  paramName?: string;
  bodyStart?: number;
  /** Text sink for parameters and plain bodies; inherited by descendants, cut at nested macros. */
  sink?: string[];
  enclosingMacro?: MacroInfo;
}

function attr(tag: SaxesTagNS, local: string): { qname: string; value: string } | undefined {
  for (const a of Object.values(tag.attributes)) {
    if (a.uri === AC_NS && a.local === local) return { qname: a.name, value: a.value };
  }
  return undefined;
}

const CLOSE_NAME = /<\/([^\s>]*)/y;

function closeNameAt(text: string, at: number): string {
  CLOSE_NAME.lastIndex = at;
  return CLOSE_NAME.exec(text)?.[1] ?? '';
}

function checkLimits(xhtml: string): void {
  // Cheap length test first: a string cannot need more than 3 UTF-8 bytes per code unit.
  if (xhtml.length * 3 > MAX_STORAGE_BYTES && Buffer.byteLength(xhtml, 'utf8') > MAX_STORAGE_BYTES) {
    throw new StorageFormatError(`document is larger than ${MAX_STORAGE_BYTES} bytes`);
  }
}

/** Parses and returns macros plus per-macro tag details (used by the id rewriter). */
export function parseStorageDetailed(xhtml: string): { doc: StorageDoc; details: MacroTagDetail[] } {
  checkLimits(xhtml);
  const full = PREFIX + xhtml + SUFFIX;
  const locate = makeLocator(xhtml);
  const macros: MacroInfo[] = [];
  const details: MacroTagDetail[] = [];
  const stack: Frame[] = [];
  const parser = new SaxesParser({ xmlns: true, additionalNamespaces: NAMESPACES });
  Object.assign(parser.ENTITIES, XHTML_ENTITIES);
  let rootOpen = false;
  const local = (position: number): number => position - PREFIX.length;

  const fail = (detail: string, offset: number): never => {
    const at = locate(Math.max(0, Math.min(offset, xhtml.length)));
    throw new StorageFormatError(detail, at.line, at.column);
  };

  parser.on('error', (err) => {
    const offset = local(parser.position) - 1;
    const detail = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    // Errors inside our synthetic end tag mean the caller's text stopped mid-construct.
    if (offset >= xhtml.length) {
      fail('unexpected end of document inside an unfinished tag, comment, CDATA section or entity', offset);
    }
    if (detail === 'undefined entity') {
      const amp = full.lastIndexOf('&', parser.position - 1);
      fail(`undefined entity ${full.slice(amp, parser.position)}`, local(amp));
    }
    fail(detail, offset);
  });

  parser.on('opentag', (tag) => {
    if (!rootOpen) {
      rootOpen = true;
      return;
    }
    const startTagEnd = local(parser.position);
    const start = local(full.lastIndexOf('<', parser.position - 1));
    if (stack.length >= MAX_STORAGE_DEPTH)
      fail(`elements nest deeper than ${MAX_STORAGE_DEPTH} levels`, start);
    const parent = stack[stack.length - 1];
    const frame: Frame = {
      qname: tag.name,
      start,
      sink: parent?.sink,
      enclosingMacro: parent?.enclosingMacro,
    };
    const owner = parent?.macro;
    if (tag.uri === AC_NS && tag.local === 'structured-macro') {
      const id = attr(tag, 'macro-id');
      const macro: MacroInfo = {
        name: attr(tag, 'name')?.value ?? '',
        macroId: id?.value,
        parameters: Object.create(null) as Record<string, string>,
        body: undefined,
        bodyKind: 'none',
        index: macros.length,
        parentIndex: frame.enclosingMacro?.index,
        path: stack.map((f) => f.qname),
        start,
        startTagEnd,
        end: startTagEnd,
        selfClosing: tag.isSelfClosing,
        ...locate(start),
      };
      macros.push(macro);
      details.push({ prefix: tag.prefix, idAttribute: id?.qname });
      Object.assign(frame, { macro, sink: undefined, enclosingMacro: macro });
    } else if (owner !== undefined && tag.uri === AC_NS) {
      if (tag.local === 'parameter') {
        Object.assign(frame, { role: 'param', paramName: attr(tag, 'name')?.value ?? '', sink: [] });
      } else if (tag.local === 'plain-text-body' && owner.bodyKind === 'none') {
        Object.assign(frame, { role: 'plain', sink: [] });
      } else if (tag.local === 'rich-text-body' && owner.bodyKind === 'none') {
        Object.assign(frame, { role: 'rich', bodyStart: startTagEnd });
      }
    }
    stack.push(frame);
  });

  parser.on('closetag', (tag) => {
    // saxes reports a mismatched end tag only after popping (and announcing) the open
    // element, so we compare names ourselves to point at the real culprit.
    const frame = stack.pop();
    const closeAt = tag.isSelfClosing ? -1 : full.lastIndexOf('</', parser.position - 1);
    if (closeAt >= 0) {
      const name = closeNameAt(full, closeAt);
      const atSuffix = parser.position === full.length;
      if (frame === undefined && !atSuffix)
        fail(`closing tag </${name}> has no matching start tag`, local(closeAt));
      if (frame !== undefined && atSuffix) fail(`element <${frame.qname}> is never closed`, frame.start);
      if (frame !== undefined && name !== frame.qname) {
        const open = locate(frame.start);
        const where = `line ${open.line}, column ${open.column}`;
        fail(`closing tag </${name}> does not match <${frame.qname}> opened at ${where}`, local(closeAt));
      }
    }
    if (frame === undefined) return;
    const owner = stack[stack.length - 1]?.macro;
    if (frame.macro !== undefined) frame.macro.end = local(parser.position);
    if (owner === undefined || frame.role === undefined) return;
    if (frame.role === 'param' && frame.paramName !== undefined) {
      owner.parameters[frame.paramName] = (frame.sink ?? []).join('');
    } else if (frame.role === 'plain') {
      owner.body = (frame.sink ?? []).join('');
      owner.bodyKind = 'plain';
    } else if (frame.role === 'rich') {
      const closeStart = tag.isSelfClosing
        ? frame.bodyStart
        : local(full.lastIndexOf('</', parser.position - 1));
      owner.body = xhtml.slice(frame.bodyStart, closeStart);
      owner.bodyKind = 'rich';
    }
  });

  const collect = (text: string): void => {
    stack[stack.length - 1]?.sink?.push(text);
  };
  parser.on('text', collect);
  parser.on('cdata', collect);

  parser.write(full).close();
  return { doc: { macros }, details };
}
