/**
 * Every command of `addon-pair`, as the command line dispatches them (main.ts) and as docs/operations.md must
 * list them (test/unit/cli-commands-documented.test.ts checks that each one has a row in its table).
 * `createsData`: the command may create the embedded database in an empty folder; every other command works on
 * existing data and refuses a folder without one (cli/data-folder.ts), rather than creating an empty database.
 */
export const COMMANDS = [
  { name: 'serve', createsData: true },
  { name: 'migrate', createsData: true },
  { name: 'help', createsData: false },
  { name: 'user add', createsData: false },
  { name: 'user passwd', createsData: false },
  { name: 'user unlock', createsData: false },
  { name: 'user delete', createsData: false },
  { name: 'token create', createsData: false },
  { name: 'import', createsData: false },
  { name: 'import-from wiki-export', createsData: false },
  { name: 'import-from wiki', createsData: false },
  { name: 'import-from tracker', createsData: false },
  { name: 'options export', createsData: false },
  { name: 'options sync', createsData: false },
] as const;

export type CommandName = (typeof COMMANDS)[number]['name'];

/** The command `argv` names (`import FILE` is `import`, `user add NAME` is `user add`), or undefined. */
export function commandOf(positionals: readonly string[]): CommandName | undefined {
  const [first = 'serve', second] = positionals;
  const two = `${first} ${second ?? ''}`;
  return COMMANDS.find((c) => c.name === two)?.name ?? COMMANDS.find((c) => c.name === first && !c.name.includes(' '))?.name;
}
