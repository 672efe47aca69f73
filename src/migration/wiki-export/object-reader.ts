// Reads entities.xml, the `hibernate-generic` list of objects a space export holds, as a stream: one parsed
// object at a time, whatever the size of the file. Each object keeps its class, id, scalar properties (text or
// CDATA), references (`<property name="space" class="Space"><id name="id">…</id></property>`) and collections of
// references. Two quirks of real exports are mended on the way: characters XML 1.0 forbids are dropped before
// saxes sees them (and counted, on the object they were found in), and `]] >` inside CDATA, the exporter's way
// of writing a nested `]]>`, is restored.
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { WikiExportError } from './export-error.ts';

export interface ObjectRef {
  cls: string;
  id: string;
}

export type PropValue = string | ObjectRef;

export interface ExportObject {
  cls: string;
  id: string;
  props: Map<string, PropValue>;
  collections: Map<string, ObjectRef[]>;
  /** Characters XML forbids that were dropped inside this object. */
  dropped: number;
}

// Raw characters XML 1.0 forbids, and character references to them (saxes refuses both).
// eslint-disable-next-line no-control-regex -- matching these control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|&#(?:x[0-9a-fA-F]{1,8}|[0-9]{1,10});/g;

function isForbiddenRef(ref: string): boolean {
  const n = ref[2] === 'x' ? parseInt(ref.slice(3, -1), 16) : parseInt(ref.slice(2, -1), 10);
  const allowed = n === 0x9 || n === 0xa || n === 0xd || (n >= 0x20 && n <= 0xd7ff) ||
    (n >= 0xe000 && n <= 0xfffd) || (n >= 0x10000 && n <= 0x10ffff);
  return !allowed;
}

type Capture = 'id' | 'prop' | 'ref' | 'element';

// A string saxes hands over may be a slice of the whole chunk it parsed, and V8 keeps the chunk alive as long as
// the slice: a title kept in the index would hold 64 kB. Short values (titles, keys, names) are copied into
// strings of their own; long ones are bodies, spooled and dropped at once.
const OWN_UP_TO = 4096;
const own = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

/**
 * The most characters one node of entities.xml may hold (a text, a CDATA section, a comment, a tag with its
 * attributes) unless WIKI_EXPORT_MAX_TEXT_MB says otherwise (issue 44): saxes keeps a node whole until it ends,
 * so a 300 MB CDATA would be held whole. Far above any real body (the wiki refuses pages of a few MB).
 */
export const DEFAULT_MAX_NODE_CHARS = 64 * 1024 * 1024;

/** What the reader writes to saxes at once: the node bound is checked between pieces, so memory stays flat. */
const PIECE = 64 * 1024;

class ObjectParser {
  private readonly parser = new SaxesParser();
  private readonly done: ExportObject[] = [];
  private depth = 0;
  private rootSeen = false;
  private obj: ExportObject | undefined;
  private propName = '';
  private propCls = '';
  private propRef: ObjectRef | undefined;
  private collName = '';
  private coll: ObjectRef[] | undefined;
  private elemCls = '';
  private capture: Capture | undefined;
  private text: string[] = [];
  private textChars = 0;
  private carry = '';
  /** Forbidden characters found outside any object. */
  droppedOutside = 0;
  /** saxes' position at its last event: what it has read since is one node it still holds. */
  private lastEvent = 0;

  constructor(
    private readonly label: string,
    private readonly maxNodeChars: number,
  ) {
    this.parser.on('error', (err) => {
      // saxes says "4:60: unexpected close tag." (line:column: what); said here as "line 4, column 60: …".
      const m = /(\d+):(\d+): (.*?)\.?$/.exec(err.message);
      const where = m ? `line ${m[1]}, column ${m[2]}: ${m[3]}` : err.message;
      if (!this.rootSeen) throw new WikiExportError('not-export', `${label} is not a wiki space export: not XML (${where})`);
      throw new WikiExportError('malformed-xml', `${label} is not well-formed XML: ${where}`);
    });
    const seen = () => (this.lastEvent = this.parser.position);
    this.parser.on('opentag', (tag) => {
      seen();
      this.open(tag as SaxesTagPlain);
    });
    this.parser.on('closetag', (tag) => {
      seen();
      this.close(tag.name);
    });
    this.parser.on('text', (t) => {
      seen();
      if (this.capture) this.keep(t);
    });
    this.parser.on('cdata', (t) => {
      seen();
      if (this.capture) this.keep(t.includes(']] >') ? t.replaceAll(']] >', ']]>') : t);
    });
    for (const other of ['opentagstart', 'attribute', 'comment', 'processinginstruction', 'doctype', 'xmldecl'] as const) this.parser.on(other, seen);
  }

  private open(tag: SaxesTagPlain): void {
    const d = this.depth++;
    const attr = (n: string) => tag.attributes[n] ?? '';
    if (d === 0) {
      this.rootSeen = true;
      if (tag.name !== 'hibernate-generic') {
        throw new WikiExportError('not-export', `${this.label} is not a wiki space export: its root element is <${tag.name}>, not <hibernate-generic>`);
      }
    } else if (d === 1 && tag.name === 'object') {
      this.obj = { cls: attr('class'), id: '', props: new Map(), collections: new Map(), dropped: 0 };
    } else if (d === 2 && this.obj) {
      if (tag.name === 'id') this.start('id');
      else if (tag.name === 'property') {
        this.propName = attr('name');
        this.propCls = attr('class');
        this.propRef = undefined;
        this.start('prop');
      } else if (tag.name === 'collection') {
        this.collName = attr('name');
        this.coll = [];
      }
    } else if (d === 3 && this.obj) {
      if (tag.name === 'id' && this.capture === 'prop') this.start('ref');
      else if (tag.name === 'element' && this.coll) this.elemCls = attr('class');
    } else if (d === 4 && tag.name === 'id' && this.coll) this.start('element');
  }

  private start(c: Capture): void {
    this.capture = c;
    this.text = [];
    this.textChars = 0;
  }

  /** One value's text, in the pieces saxes hands over, at most maxNodeChars in all. */
  private keep(t: string): void {
    this.textChars += t.length;
    if (this.textChars > this.maxNodeChars) throw this.tooLarge();
    this.text.push(t);
  }

  private take(): string {
    const s = this.text.length === 1 ? this.text[0]! : this.text.join('');
    this.text = [];
    this.capture = undefined;
    return s.length <= OWN_UP_TO ? own(s) : s;
  }

  private close(name: string): void {
    const d = --this.depth;
    const obj = this.obj;
    if (!obj) return;
    if (d === 4 && this.capture === 'element') this.coll?.push({ cls: this.elemCls, id: this.take().trim() });
    else if (d === 3 && this.capture === 'ref') {
      this.propRef = { cls: this.propCls, id: this.take().trim() };
      this.capture = 'prop';
    } else if (d === 2) {
      if (name === 'id' && this.capture === 'id') obj.id = this.take().trim();
      else if (name === 'property') {
        const value = this.take();
        obj.props.set(this.propName, this.propRef ?? value);
      } else if (name === 'collection' && this.coll) {
        obj.collections.set(this.collName, this.coll);
        this.coll = undefined;
      }
    } else if (d === 1 && name === 'object') {
      this.done.push(obj);
      this.obj = undefined;
    }
  }

  /** Feeds decoded text, dropping forbidden characters; `final` when no more text follows. */
  write(chunk: string, final = false): void {
    let text = this.carry + chunk;
    this.carry = '';
    // A character reference cut by the chunk's end waits for the next chunk.
    const amp = text.lastIndexOf('&', text.length - 1);
    if (!final && amp >= 0 && amp > text.length - 14 && !text.includes(';', amp)) {
      this.carry = text.slice(amp);
      text = text.slice(0, amp);
    }
    FORBIDDEN.lastIndex = 0;
    let last = 0;
    for (let m = FORBIDDEN.exec(text); m; m = FORBIDDEN.exec(text)) {
      if (m[0].length > 1 && !isForbiddenRef(m[0])) continue;
      if (m.index > last) this.feed(text.slice(last, m.index));
      last = m.index + m[0].length;
      if (this.obj) this.obj.dropped++;
      else this.droppedOutside++;
    }
    if (last < text.length) this.feed(last === 0 ? text : text.slice(last));
  }

  /** Writes to saxes a piece at a time, refusing a node longer than maxNodeChars before saxes holds more. */
  private feed(text: string): void {
    for (let at = 0; at < text.length; at += PIECE) {
      this.parser.write(text.length <= PIECE ? text : text.slice(at, at + PIECE));
      if (this.parser.position - this.lastEvent > this.maxNodeChars) throw this.tooLarge();
    }
  }

  private tooLarge(): WikiExportError {
    const mb = Math.round(this.maxNodeChars / (1024 * 1024));
    const obj = this.obj;
    const what = !obj ? 'outside any object' : `in object ${obj.cls || '?'} ${obj.id || '(id not read yet)'}${this.capture === 'prop' ? `, property ${this.propName}` : ''}`;
    return new WikiExportError(
      'text-too-large',
      `${this.label} holds a text longer than ${mb} MB characters ${what} (line ${this.parser.line}): raise WIKI_EXPORT_MAX_TEXT_MB to import it`,
    );
  }

  end(): void {
    this.write('', true);
    this.parser.close();
    if (!this.rootSeen) throw new WikiExportError('not-export', `${this.label} is not a wiki space export: it holds no XML element`);
  }

  drain(): ExportObject[] {
    return this.done.splice(0, this.done.length);
  }
}

export interface ObjectStreamStats {
  /** Forbidden characters dropped outside any object. */
  droppedOutside: number;
}

/** Yields the export's objects one at a time as `chunks` (the bytes of entities.xml) arrive. */
export async function* readExportObjects(
  chunks: AsyncIterable<Buffer>,
  stats: ObjectStreamStats = { droppedOutside: 0 },
  label = 'entities.xml',
  maxNodeChars = DEFAULT_MAX_NODE_CHARS,
): AsyncGenerator<ExportObject> {
  const parser = new ObjectParser(label, maxNodeChars);
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    parser.write(decoder.decode(chunk, { stream: true }));
    yield* parser.drain();
  }
  parser.write(decoder.decode());
  parser.end();
  yield* parser.drain();
  stats.droppedOutside = parser.droppedOutside;
}
