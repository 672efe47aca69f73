// The code-box model: turns a macro body (+ parameters) into the ordered list of
// downloadable blocks — one per config section, then the raw template (`raw`, key `cmF3`).
import { encodeBlockKey } from './block-key.ts';
import { substitute } from './block-pieces.ts';
import { CodeboxError } from './codebox-errors.ts';
import { parseConfig, type ConfigSection, type ConfigWarning, type ParsedConfig } from './ini-config.ts';

export { CodeboxError, errorKeyFor, CODEBOX_ERROR_KINDS, type CodeboxErrorKind } from './codebox-errors.ts';
export { parseConfig, type ConfigSection, type ConfigWarning, type ParsedConfig } from './ini-config.ts';
export { substitute } from './block-pieces.ts';

export const CODEBOX_KINDS = [
  'advanced-codeblock-macro',
  'advanced-single-codeblock-macro',
  'advanced-remote-codeblock-macro',
] as const;
export type CodeboxKind = (typeof CODEBOX_KINDS)[number];

export const RAW_NAME = 'raw';
export const RAW_KEY = 'cmF3';

export function isCodeboxKind(name: string): name is CodeboxKind {
  return (CODEBOX_KINDS as readonly string[]).includes(name);
}

export interface CodeBlock {
  readonly name: string;
  /** Standard Base64 (with `=` padding) of the UTF-8 name. */
  readonly key: string;
  /** The block's text; computed on first access, so listing blocks never expands templates. */
  readonly text: string;
}

export interface RemoteSource {
  url: string | undefined;
  user: string | undefined;
  password: string | undefined;
}

export interface ParsedCodebox {
  kind: CodeboxKind;
  sections: ConfigSection[];
  /** undefined for the remote kind: the template is fetched later (then call buildBlocks). */
  template: string | undefined;
  /** Empty for the remote kind until buildBlocks is called with the fetched template. */
  blocks: CodeBlock[];
  warnings: ConfigWarning[];
  /** Remote kind only: where the template lives (parameters remotefileurl/-httpuser/-httppassword). */
  remote: RemoteSource | undefined;
}

// The vendor's own splitter: the first `[content]` followed by optional whitespace and a
// line break (CRLF, CR, LF-CR or LF). `\s*` is greedy, so blank (or blank-looking: spaces,
// NBSP) lines right after the marker are swallowed, but the indentation of the first
// template line is kept. As in the vendor's pattern, `[content]` need not start a line
// and is case-sensitive. Runs in linear time: each candidate's `\s*` run is disjoint.
const CONTENT_MARKER = /\[content\]\s*(?:\r\n|\r|\n\r|\n)/;

/** Splits a multi body; undefined when there is no usable `[content]` line. */
export function splitAtContent(body: string): { config: string; template: string } | undefined {
  const m = CONTENT_MARKER.exec(body);
  if (m === null) return undefined;
  return { config: body.slice(0, m.index), template: body.slice(m.index + m[0].length) };
}

class SectionBlock implements CodeBlock {
  readonly key: string;
  #text: string | undefined;
  constructor(
    readonly name: string,
    private readonly template: string,
    private readonly values: ReadonlyMap<string, string>,
  ) {
    this.key = encodeBlockKey(name);
  }
  get text(): string {
    this.#text ??= substitute(this.template, this.values);
    return this.#text;
  }
  toJSON(): { name: string; key: string; text: string } {
    return { name: this.name, key: this.key, text: this.text };
  }
}

/**
 * Blocks for the given sections and template, in section order, then the raw template.
 * A user section literally named `raw` would share the key `cmF3` with the raw template;
 * the raw template wins that key, and the shadowed section is left out of the list
 * (a link to it would download the raw template anyway).
 */
export function buildBlocks(sections: readonly ConfigSection[], template: string): CodeBlock[] {
  const blocks: CodeBlock[] = sections
    .filter((s) => s.name !== RAW_NAME)
    .map((s) => new SectionBlock(s.name, template, s.values));
  blocks.push({ name: RAW_NAME, key: RAW_KEY, text: template });
  return blocks;
}

function hasText(body: string | undefined): body is string {
  return body !== undefined && body.trim() !== '';
}

/**
 * Config of a remote code box. The whole body is config; should it still contain a
 * `[content]` line (the docs say it "may be omitted with Remote"), the part after it is
 * ignored because the template comes from the remote URL. An empty body is allowed
 * (no sections: only the raw remote template is offered).
 */
export function parseConfigOnly(body: string | undefined): ParsedConfig {
  if (!hasText(body)) return { sections: [], warnings: [] };
  return parseConfig(splitAtContent(body)?.config ?? body);
}

export function parseCodebox(
  kind: CodeboxKind,
  body: string | undefined,
  parameters: Readonly<Record<string, string>> = {},
): ParsedCodebox {
  if (kind === 'advanced-remote-codeblock-macro') {
    const { sections, warnings } = parseConfigOnly(body);
    const remote = {
      url: parameters['remotefileurl'],
      user: parameters['remotefilehttpuser'],
      password: parameters['remotefilehttppassword'],
    };
    return { kind, sections, template: undefined, blocks: [], warnings, remote };
  }
  if (!hasText(body)) throw new CodeboxError('EMPTY_MACRO_BODY');
  if (kind === 'advanced-single-codeblock-macro') {
    // The single box has no sections: its code is offered as the raw block only.
    return {
      kind,
      sections: [],
      template: body,
      blocks: buildBlocks([], body),
      warnings: [],
      remote: undefined,
    };
  }
  const split = splitAtContent(body);
  if (split === undefined) throw new CodeboxError('INVALID_MACRO_BODY');
  const { sections, warnings } = parseConfig(split.config);
  const blocks = buildBlocks(sections, split.template);
  return { kind, sections, template: split.template, blocks, warnings, remote: undefined };
}
