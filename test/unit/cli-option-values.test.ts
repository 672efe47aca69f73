import { describe, expect, it } from 'vitest';
import { parseArgs } from 'node:util';
import { bindOptionValues, valueOptionNames } from '../../src/cli/option-values.ts';

const OPTIONS = { token: { type: 'string' }, url: { type: 'string' }, apply: { type: 'boolean' } } as const;
const values = valueOptionNames(OPTIONS);

describe('bindOptionValues', () => {
  it('takes a token that starts with a dash as the value of --token (parseArgs alone refuses it)', () => {
    const argv = ['options', 'sync', '--token', '-Qx3_9a', '--apply', 'file.csv'];
    expect(() => parseArgs({ args: argv, allowPositionals: true, options: OPTIONS })).toThrow(/ambiguous/);
    const { values: o, positionals } = parseArgs({ args: bindOptionValues(argv, values), allowPositionals: true, options: OPTIONS });
    expect(o).toEqual({ token: '-Qx3_9a', apply: true });
    expect(positionals).toEqual(['options', 'sync', 'file.csv']);
  });

  it('leaves --name=value, flags, a value option at the end, and everything after -- as they were', () => {
    expect(bindOptionValues(['--url=http://x', '--apply', 'a'], values)).toEqual(['--url=http://x', '--apply', 'a']);
    expect(bindOptionValues(['a', '--token'], values)).toEqual(['a', '--token']);
    expect(bindOptionValues(['--', '--token', '-x'], values)).toEqual(['--', '--token', '-x']);
    expect(bindOptionValues(['--apply', '--token', '--url'], values)).toEqual(['--apply', '--token=--url']);
  });

  it('names only the options that take a value', () => {
    expect([...values].sort()).toEqual(['token', 'url']);
  });
});
