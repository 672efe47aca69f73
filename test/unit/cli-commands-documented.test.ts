import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandOf } from '../../src/cli/commands.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

// Issue 42: `options export|sync` were missing from docs/operations.md's command table. Every command the
// command line dispatches (src/cli/commands.ts) must have a row there, and every row must name a command.
describe('the command table of docs/operations.md', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Command line'), doc.indexOf('\n## ', doc.indexOf('## Command line') + 1));
  /** The commands a table row names: each `code` span at the start of its first cell. */
  const documented = section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...l.split(' | ')[0]!.matchAll(/`([a-z][a-z -]*?)(?: [A-Z[].*?)?`/g)].map((m) => m[1]!.trim()))
    .filter((name) => !name.startsWith('npm ')); // `npm start`, named beside `serve`

  it('has a row for every command', () => {
    for (const c of COMMANDS) expect(documented, `docs/operations.md lacks a row for \`${c.name}\``).toContain(c.name);
  });

  it('names only commands that exist', () => {
    for (const name of documented) expect(commandOf(name.split(' ')), name).toBe(name);
  });
});

describe('commandOf', () => {
  it('names the command of the arguments', () => {
    expect(commandOf([])).toBe('serve');
    expect(commandOf(['import', 'people.json'])).toBe('import');
    expect(commandOf(['user', 'unlock', 'alice'])).toBe('user unlock');
    expect(commandOf(['import-from', 'wiki', 'https://w'])).toBe('import-from wiki');
    expect(commandOf(['user', 'frob'])).toBeUndefined();
    expect(commandOf(['options'])).toBeUndefined();
  });
});
