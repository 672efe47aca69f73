/**
 * JSON read as a stream of events (an object or array opened or closed, a member's name, a value), fed chunk by
 * chunk, for uploads too large to parse whole: the reader keeps what it wants of each event and nothing else,
 * so a body of millions of values costs the memory of one token. Iterative (an explicit stack), so nesting
 * cannot overflow the call stack; nesting and the length of one token (a string, a number) are bounded, and a
 * text over either bound, or not JSON, throws JsonStreamError with a message for the client.
 */
export type JsonEvent =
  | { kind: 'open'; container: 'object' | 'array' }
  | { kind: 'close' }
  | { kind: 'key'; key: string }
  | { kind: 'value'; value: string | number | boolean | null };

export class JsonStreamError extends Error {
  /** Over the nesting bound (the reader may name its own bound instead). */
  nesting = false;
}

type Expect = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'after' | 'end';

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export class JsonTokens {
  private pending = '';
  private readonly stack: ('object' | 'array')[] = [];
  private expect: Expect = 'value';
  /** Characters read before the current chunk, for the position in an error. */
  private offset = 0;

  constructor(
    private readonly onEvent: (e: JsonEvent) => void,
    private readonly maxNesting: number,
    private readonly maxToken = 65_536,
  ) {}

  push(chunk: string): void {
    const buf = this.pending + chunk;
    this.offset -= this.pending.length;
    this.pending = '';
    const stop = this.scan(buf, false);
    this.pending = buf.slice(stop);
    this.offset += stop;
    if (this.pending.length > this.maxToken) this.fail(`a string or number longer than ${this.maxToken} characters`, stop);
  }

  end(): void {
    const rest = this.pending;
    this.pending = '';
    this.scan(rest, true);
    if (this.expect !== 'end') throw new JsonStreamError('The file ends before its JSON does.');
  }

  private fail(message: string, at: number): never {
    throw new JsonStreamError(`Not valid JSON at character ${this.offset + at + 1}: ${message}.`);
  }

  /** Reads complete tokens of `buf`; answers where the incomplete one at its end starts (buf.length when none). */
  private scan(buf: string, final: boolean): number {
    let i = 0;
    while (i < buf.length) {
      const c = buf[i]!;
      if (WHITESPACE.has(c)) {
        i++;
        continue;
      }
      if (c === '"') {
        const close = closingQuote(buf, i + 1);
        if (close < 0) {
          if (final) this.fail('a string is not closed', i);
          return i;
        }
        if (close + 1 - i > this.maxToken) this.fail(`a string longer than ${this.maxToken} characters`, i);
        let text: string;
        try {
          text = JSON.parse(buf.slice(i, close + 1)) as string;
        } catch {
          this.fail('a string with a control character or a bad escape', i);
        }
        if (this.expect === 'key' || this.expect === 'keyOrClose') {
          this.onEvent({ kind: 'key', key: text });
          this.expect = 'colon';
        } else this.value(text, i);
        i = close + 1;
        continue;
      }
      if (c === '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) {
        let j = i;
        while (j < buf.length && /[0-9a-zA-Z+\-.]/.test(buf[j]!)) j++;
        if (j === buf.length && !final) return i;
        const word = buf.slice(i, j);
        if (word.length > this.maxToken) this.fail(`a number longer than ${this.maxToken} characters`, i);
        if (word === 'true' || word === 'false') this.value(word === 'true', i);
        else if (word === 'null') this.value(null, i);
        else if (NUMBER.test(word)) this.value(Number(word), i);
        else this.fail(`unexpected ${JSON.stringify(word.slice(0, 20))}`, i);
        i = j;
        continue;
      }
      this.punctuation(c, i);
      i++;
    }
    return buf.length;
  }

  private value(value: string | number | boolean | null, at: number): void {
    if (this.expect !== 'value' && this.expect !== 'valueOrClose') this.fail('a value where none belongs', at);
    this.onEvent({ kind: 'value', value });
    this.expect = this.stack.length === 0 ? 'end' : 'after';
  }

  private punctuation(c: string, at: number): void {
    const top = this.stack.at(-1);
    if (c === '{' || c === '[') {
      if (this.expect !== 'value' && this.expect !== 'valueOrClose') this.fail(`a ${c} where none belongs`, at);
      if (this.stack.length >= this.maxNesting) {
        const err = new JsonStreamError(`Nested more than ${this.maxNesting} levels at character ${this.offset + at + 1}.`);
        err.nesting = true;
        throw err;
      }
      const container = c === '{' ? 'object' : 'array';
      this.stack.push(container);
      this.onEvent({ kind: 'open', container });
      this.expect = c === '{' ? 'keyOrClose' : 'valueOrClose';
    } else if (c === '}' || c === ']') {
      const closes = c === '}' ? 'object' : 'array';
      const may = this.expect === 'after' || this.expect === (c === '}' ? 'keyOrClose' : 'valueOrClose');
      if (top !== closes || !may) this.fail(`a ${c} where none belongs`, at);
      this.stack.pop();
      this.onEvent({ kind: 'close' });
      this.expect = this.stack.length === 0 ? 'end' : 'after';
    } else if (c === ',' && this.expect === 'after') {
      this.expect = top === 'object' ? 'key' : 'value';
    } else if (c === ':' && this.expect === 'colon') {
      this.expect = 'value';
    } else this.fail(`unexpected ${JSON.stringify(c)}`, at);
  }
}

/** The index of the quote that closes a string whose text starts at `from` (-1: not in `buf`). */
function closingQuote(buf: string, from: number): number {
  for (let q = buf.indexOf('"', from); q >= 0; q = buf.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (buf[q - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}
