/**
 * Binds each value-taking option to the argument after it before `util.parseArgs` reads the line.
 *
 * `parseArgs` refuses `--token -abc…` as "ambiguous" because the value starts with a dash, and one
 * personal access token in 64 does (they are base64url). A person who pasted a token or a password
 * after its option meant it as the value, so `--name VALUE` becomes `--name=VALUE` for the options
 * that take one; `--name=VALUE`, flags and positionals pass unchanged, and everything after `--` too.
 */
export function bindOptionValues(argv: readonly string[], valueOptions: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (arg.startsWith('--') && valueOptions.has(arg.slice(2)) && next !== undefined) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** The names of the options that take a value in a `parseArgs` options table. */
export function valueOptionNames(options: Record<string, { type: 'string' | 'boolean' }>): Set<string> {
  return new Set(Object.entries(options).filter(([, o]) => o.type === 'string').map(([name]) => name));
}
