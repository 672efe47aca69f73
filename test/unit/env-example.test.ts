import fs from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('.env.example', () => {
  const example = parseEnv(fs.readFileSync('.env.example', 'utf8'));

  it('lists every variable that src/config.ts reads, and no other', () => {
    const source = fs.readFileSync('src/config.ts', 'utf8');
    const schema = source.slice(source.indexOf('const envSchema'), source.indexOf('export type Config'));
    const read = [...schema.matchAll(/^ {2}([A-Z0-9_]+):/gm)].map((m) => m[1]).sort();
    expect(read.length).toBeGreaterThan(10);
    expect(Object.keys(example).sort()).toEqual(read);
  });

  it('gives the defaults: loading it configures exactly what an empty environment does', () => {
    expect(loadConfig(example)).toEqual(loadConfig({}));
  });

  it('is documented: docs/configuration.md has a row for every variable, and for no other', () => {
    const page = fs.readFileSync('docs/configuration.md', 'utf8');
    const rows = [...page.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]).sort();
    expect(rows).toEqual(Object.keys(example).sort());
  });
});
