import type { FieldProblem } from '../../platform/http/app-error.ts';
import { JsonStreamError, JsonTokens, type JsonEvent } from '../../platform/http/json-tokens.ts';
import { checkValue, levelsMessage, members, noteProblem, optionLimitMessage, type FileNode, MAX_SYNC_OPTIONS } from './options-sync.input.ts';
import { validationError } from '../shared/fieldeditor.errors.ts';

/**
 * The export's JSON (`{options: […]}`, or the array alone) read as it arrives (issue 44): each option object
 * becomes a FileNode when it closes, members other than id, optionvalue, disabled, position and children are
 * skipped unread, and reading stops at the first option over MAX_SYNC_OPTIONS (400 naming it). Options deeper
 * than the field's levels are answered as problems and skipped. Memory: the options kept, whatever is sent.
 */
type Frame =
  | { t: 'root' }
  | { t: 'wrapper'; key?: string; found: boolean }
  | { t: 'list'; prefix: string; depth: number; index: number; out: FileNode[]; tooDeep: boolean }
  | { t: 'option'; where: string; depth: number; key?: string; raw: Record<string, unknown>; children: FileNode[] }
  | { t: 'skip'; open: number };

const SCALARS = new Set(['id', 'optionvalue', 'disabled', 'position']);
const NOT_AN_ARRAY = 'must be an array of options: {"options": [{"optionvalue": …, "children": […]}]}';

export class JsonForestReader {
  private readonly roots: FileNode[] = [];
  private readonly stack: Frame[] = [{ t: 'root' }];
  private readonly tokens: JsonTokens;
  private count = 0;
  /** The option being read, for an error's name. */
  private where = 'options';

  /** `levels`: how deep the field's options go (1, 2, or the multi-level bound). */
  constructor(
    private readonly levels: number,
    private readonly problems: FieldProblem[],
  ) {
    // An option level is an object in an array; the wrapper and the top-level array come on top.
    this.tokens = new JsonTokens((e) => this.event(e), 2 * levels + 4);
  }

  push(chunk: string): void {
    this.guard(() => this.tokens.push(chunk));
  }

  end(): FileNode[] {
    this.guard(() => this.tokens.end());
    return this.roots;
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      if (err instanceof JsonStreamError && err.nesting) {
        throw validationError([{ name: this.where, message: `This field's options have at most ${this.levels} level${this.levels === 1 ? '' : 's'}; the file nests them deeper.` }]);
      }
      if (err instanceof JsonStreamError) throw validationError([{ name: this.where, message: err.message }]);
      throw err;
    }
  }

  private event(e: JsonEvent): void {
    const top = this.stack.at(-1)!;
    switch (top.t) {
      case 'skip':
        if (e.kind === 'open') top.open++;
        else if (e.kind === 'close' && --top.open === 0) this.stack.pop();
        return;
      case 'root':
        this.stack.pop();
        if (e.kind === 'open' && e.container === 'array') this.stack.push(this.list('options', 0, this.roots));
        else if (e.kind === 'open') this.stack.push({ t: 'wrapper', found: false });
        else throw validationError([{ name: 'options', message: NOT_AN_ARRAY }]);
        return;
      case 'wrapper':
        if (e.kind === 'key') top.key = e.key;
        else if (e.kind === 'close') {
          if (!top.found) noteProblem(this.problems, { name: 'options', message: NOT_AN_ARRAY });
        } else if (top.key === 'options' && e.kind === 'open' && e.container === 'array') {
          top.found = true;
          this.stack.push(this.list('options', 0, this.roots));
        }
        else if (top.key === 'options') throw validationError([{ name: 'options', message: NOT_AN_ARRAY }]);
        else if (e.kind === 'open') this.stack.push({ t: 'skip', open: 1 });
        return;
      case 'list':
        return this.inList(top, e);
      case 'option':
        return this.inOption(top, e);
    }
  }

  private list(prefix: string, depth: number, out: FileNode[]): Frame {
    return { t: 'list', prefix, depth, index: 0, out, tooDeep: false };
  }

  private inList(list: Extract<Frame, { t: 'list' }>, e: JsonEvent): void {
    if (e.kind === 'close') {
      this.stack.pop();
      return;
    }
    const where = `${list.prefix}[${list.index++}]`;
    this.where = where;
    if (++this.count > MAX_SYNC_OPTIONS) throw validationError([{ name: where, message: optionLimitMessage() }]);
    if (list.depth >= this.levels) {
      if (!list.tooDeep) noteProblem(this.problems, { name: where, message: levelsMessage(this.levels, list.depth + 1) });
      list.tooDeep = true;
      if (e.kind === 'open') this.stack.push({ t: 'skip', open: 1 });
      return;
    }
    if (e.kind === 'open' && e.container === 'object') {
      this.stack.push({ t: 'option', where, depth: list.depth, raw: {}, children: [] });
      return;
    }
    noteProblem(this.problems, { name: where, message: 'must be an option object' });
    if (e.kind === 'open') this.stack.push({ t: 'skip', open: 1 });
  }

  private inOption(o: Extract<Frame, { t: 'option' }>, e: JsonEvent): void {
    if (e.kind === 'key') {
      o.key = e.key;
      return;
    }
    if (e.kind === 'close') {
      this.stack.pop();
      const value = checkValue(o.raw.optionvalue, `${o.where}.optionvalue`, this.problems);
      const node: FileNode = { value: value ?? '', where: o.where, ...members(o.raw, o.where, this.problems), children: o.children };
      const parent = this.stack.at(-1) as Extract<Frame, { t: 'list' }>;
      if (value !== undefined) parent.out.push(node);
      return;
    }
    const key = o.key ?? '';
    if (key === 'children' && e.kind === 'open' && e.container === 'array') {
      this.stack.push(this.list(`${o.where}.children`, o.depth + 1, o.children));
      return;
    }
    if (key === 'children' && !(e.kind === 'value' && e.value === null)) noteProblem(this.problems, { name: `${o.where}.children`, message: 'must be an array of options' });
    // A member that should be a text, number or boolean but is an object or array: kept as one (refused by its check).
    if (SCALARS.has(key)) o.raw[key] = e.kind === 'value' ? e.value : {};
    if (e.kind === 'open') this.stack.push({ t: 'skip', open: 1 });
  }
}
