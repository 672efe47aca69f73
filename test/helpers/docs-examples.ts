// The shell examples of the documentation as steps a test can run, and the answers the text says they give.
//
// Conventions (docs/README.md "Shell examples"):
// - A fenced block whose info string is exactly `sh` runs; `sh norun` (and any other language) does not. A block
//   may be indented (inside a list item); its closing fence has the same indentation.
// - `<!-- expect -->` on the line before a fenced block makes that block the expected output of the `sh` block
//   just before it: `json` blocks are compared as JSON values (one or more, as `jq` prints them), any other block
//   as text (trailing white space of each line and blank lines at the end ignored).
// - `http://localhost:8080` stands for the server the reader started; a test replaces it with its own.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

export interface DocsStep {
  /** 1-based line of the block's opening fence. */
  line: number;
  script: string;
  expect?: { kind: 'json' | 'text'; text: string; line: number };
}

/** The runnable `sh` blocks of a Markdown text, in order, each with its expected output when the text gives one. */
export function docsSteps(markdown: string): DocsStep[] {
  const lines = markdown.split('\n');
  const steps: DocsStep[] = [];
  let last: DocsStep | undefined;
  for (let i = 0; i < lines.length; i++) {
    // A block inside a list item is indented like the item's text (docs/migration.md's steps): the same
    // indentation closes it and is taken off its lines.
    const open = /^( *)```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const info = open[2]!.trim();
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== `${indent}\`\`\``; i++) body.push(lines[i]!.startsWith(indent) ? lines[i]!.slice(indent.length) : lines[i]!);
    if (i >= lines.length) throw new Error(`unclosed code block at line ${start + 1}`);
    const text = body.join('\n');
    const marked = start > 0 && lines[start - 1]!.trim() === '<!-- expect -->';
    if (marked) {
      if (!last || last.expect) throw new Error(`line ${start + 1}: an expected answer must follow its own sh block`);
      last.expect = { kind: info === 'json' ? 'json' : 'text', text, line: start + 1 };
      continue;
    }
    if (info === 'sh') {
      last = { line: start + 1, script: text };
      steps.push(last);
    } else {
      // Any other block between a command and its expected answer ends that pairing.
      last = undefined;
    }
  }
  return steps;
}

/** Every JSON value of a text that holds one or more of them one after another (as `jq` prints a stream). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i]!)) i++;
    if (i >= n) break;
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < n; i++) {
      const c = text[i]!;
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
        if (!inString && depth === 0) {
          i++;
          break;
        }
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (depth === 0 && /\s/.test(c)) break;
    }
    values.push(JSON.parse(text.slice(start, i)));
  }
  return values;
}

export const normalizeText = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');

export interface PageRun {
  /** Index into the steps of the block that failed, or undefined when all ran. */
  failed?: number;
  exitCode: number | null;
  outputs: { stdout: string; stderr: string }[];
}

const DOC_BASE = 'http://localhost:8080';

/**
 * `http://localhost:8080` → the test's server, and each of `replace` (other addresses a page names, such as the
 * webhook receiver of docs/webhooks.md at `http://127.0.0.1:9000`) → what the test started in its place.
 */
function substitute(text: string, base: string, replace: Record<string, string> = {}): string {
  let out = text.split(DOC_BASE).join(base);
  for (const [from, to] of Object.entries(replace)) out = out.split(from).join(to);
  return out;
}

/** This checkout's command line, which a page runs as `addon-pair` (as after `npm link`; docs/operations.md). */
const CLI = path.resolve(import.meta.dirname, '../../bin/addon-pair.mjs');

export interface PageRunOptions {
  timeoutMs: number;
  replace?: Record<string, string>;
  /** Variables of the page's shell besides PATH, HOME and LANG (DATA_DIR, so `addon-pair` finds the test's server). */
  env?: Record<string, string>;
  /** Files the reader is said to have in the working folder (docs/migration.md's space export), by name. */
  files?: Record<string, Uint8Array>;
}

/**
 * Runs the steps of one page in one bash session (`set -euo pipefail`, so variables carry over from block to
 * block and any failing command stops the page), with `http://localhost:8080` replaced by `base`. `curl` is
 * run with `--fail-with-body` unless the command reads the status itself (`-w`), so a 4xx or 5xx fails;
 * `addon-pair` is this checkout's command line.
 */
export function runPage(steps: DocsStep[], base: string, opts: PageRunOptions): PageRun {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-docs-'));
  try {
    const realCurl = JSON.stringify(execFileSync('bash', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim());
    // The docs test's curl: an HTTP error fails the command, unless the example reads the status itself (-w). A
    // function in the page's shell (a page runs a hundred curls, and a script would cost a bash each), and the same
    // function in a script on the PATH for a curl started by another program (xargs, env).
    const curlFunction = `curl() { local a; for a in "$@"; do case "$a" in -w|--write-out|-w*) ${realCurl} "$@"; return;; esac; done; ${realCurl} --fail-with-body "$@"; }`;
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'curl'), ['#!/usr/bin/env bash', curlFunction, 'curl "$@"', ''].join('\n'), { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'addon-pair'), `#!/usr/bin/env bash\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`, { mode: 0o755 });
    const work = path.join(dir, 'work');
    fs.mkdirSync(work);
    for (const [name, bytes] of Object.entries(opts.files ?? {})) fs.writeFileSync(path.join(work, name), bytes);
    const out = (i: number, s: string) => path.join(dir, `${i}.${s}`);
    const script = [
      'set -euo pipefail',
      curlFunction,
      ...steps.flatMap((s, i) => [
        `echo ${i} > ${JSON.stringify(path.join(dir, 'current'))}`,
        `exec >${JSON.stringify(out(i, 'out'))} 2>${JSON.stringify(out(i, 'err'))}`,
        substitute(s.script, base, opts.replace),
      ]),
      `echo done > ${JSON.stringify(path.join(dir, 'current'))}`,
      '',
    ].join('\n');
    const res = spawnSync('bash', ['-c', script], {
      cwd: work,
      env: { ...opts.env, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: work, LANG: 'C.UTF-8' },
      timeout: opts.timeoutMs,
      encoding: 'utf8',
    });
    const current = fs.existsSync(path.join(dir, 'current')) ? fs.readFileSync(path.join(dir, 'current'), 'utf8').trim() : '0';
    const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '');
    const outputs = steps.map((_, i) => ({ stdout: read(out(i, 'out')), stderr: read(out(i, 'err')) }));
    const failed = current === 'done' && res.status === 0 ? undefined : Number(current);
    return { failed, exitCode: res.status, outputs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Differences between what a step printed and what the text says it prints; empty when they agree. */
export function compareAnswer(step: DocsStep, stdout: string, base: string, replace?: Record<string, string>): string | undefined {
  if (!step.expect) return undefined;
  const expected = substitute(step.expect.text, base, replace);
  if (step.expect.kind === 'json') {
    let actual: unknown[];
    try {
      actual = jsonValues(stdout);
    } catch (err) {
      return `the answer is not JSON (${(err as Error).message})`;
    }
    const want = jsonValues(expected);
    if (!isDeepStrictEqual(actual, want)) return `expected ${JSON.stringify(want)}\n     got ${JSON.stringify(actual)}`;
    return undefined;
  }
  if (normalizeText(stdout) !== normalizeText(expected)) return `expected:\n${normalizeText(expected)}\ngot:\n${normalizeText(stdout)}`;
  return undefined;
}
