// `addon-pair import-from wiki-export|wiki|tracker …` (issue 31): brings a team's data across from a wiki space
// export, a live wiki or a live tracker, on the database as `import FILE` does (the embedded database refuses
// while a server runs on its folder). Progress goes to standard error, the report to standard output (text, or
// the MigrationReport as JSON with --json). An export's dry run beside a running embedded server is run by that
// server, over its command socket (command-socket.client.ts). Exit 0 when every unit imported or was unchanged,
// 1 when one failed or the source could not be read, 2 for a usage mistake. See docs/migration.md.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bindOptionValues, valueOptionNames } from './option-values.ts';
import type { Config } from '../config.ts';
import { StartupError } from '../platform/startup-error.ts';
import { lockDataDir, lockHolder } from '../platform/db/data-dir-lock.ts';
import { embeddedFolderOf } from '../platform/db/embedded-data-dir.ts';
import type { MigrationReport } from '../migration/report.ts';
import type { MigrationDeps } from '../migration/migration-deps.ts';
import type { SourceAuth } from '../migration/source-http.ts';

export const IMPORT_FROM_USAGE = `Usage:
  addon-pair import-from wiki-export FILE [--space KEY…] [--dry-run] [--json]
  addon-pair import-from wiki URL --space KEY… (--token T | --user NAME) [--dry-run] [--json]
  addon-pair import-from tracker URL (--token T | --user NAME) [--field ID|NAME…] [--dry-run] [--json]
A password for --user is read from the first line of standard input; ADDON_PAIR_SOURCE_TOKEN may replace --token.`;

/** A mistake in the arguments: the command answers it with exit code 2. */
export class ImportFromUsageError extends Error {}

export interface ImportFromArgs {
  source: 'wiki-export' | 'wiki' | 'tracker';
  /** The export file, or the live source's base URL. */
  target: string;
  spaces: string[];
  fields: string[];
  dryRun: boolean;
  json: boolean;
  token?: string;
  user?: string;
}

const SOURCES = ['wiki-export', 'wiki', 'tracker'] as const;

const IMPORT_FROM_OPTIONS = {
  space: { type: 'string', multiple: true },
  field: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  token: { type: 'string' },
  user: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The arguments after `import-from`, checked: each source takes only its own options. */
export function parseImportFrom(argv: string[], env: NodeJS.ProcessEnv): ImportFromArgs | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: bindOptionValues(argv, valueOptionNames(IMPORT_FROM_OPTIONS)), allowPositionals: true, options: IMPORT_FROM_OPTIONS });
  } catch (err) {
    throw new ImportFromUsageError((err as Error).message.split('\n')[0]!.replace(/\.$/, ''));
  }
  const { values: o, positionals: p } = parsed;
  if (o.help) return 'help';
  const [source, target, ...extra] = p;
  if (!SOURCES.includes(source as never)) throw new ImportFromUsageError(source ? `unknown source ${source} (wiki-export, wiki or tracker)` : 'missing the source (wiki-export, wiki or tracker)');
  const kind = source as ImportFromArgs['source'];
  if (!target) throw new ImportFromUsageError(`missing ${kind === 'wiki-export' ? 'FILE' : 'URL'}`);
  if (extra.length > 0) throw new ImportFromUsageError(`unexpected argument ${extra[0]}`);
  const spaces = (o.space ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  const fields = (o.field ?? []).map((s) => s.trim()).filter(Boolean);
  const token = o.token ?? (kind === 'wiki-export' ? undefined : env.ADDON_PAIR_SOURCE_TOKEN || undefined);
  const args: ImportFromArgs = { source: kind, target, spaces, fields, dryRun: o['dry-run'] === true, json: o.json === true, token, user: o.user };
  if (kind === 'wiki-export') {
    if (o.token !== undefined || o.user !== undefined) throw new ImportFromUsageError('an export file takes no --token or --user');
  } else {
    if (!/^https?:\/\/[^\s]+$/i.test(target)) throw new ImportFromUsageError(`${target} is not an http(s) URL`);
    if (o.token !== undefined && o.user !== undefined) throw new ImportFromUsageError('give --token or --user, not both');
    if (args.token === undefined && args.user === undefined) throw new ImportFromUsageError(`a live ${kind} needs --token T (or ADDON_PAIR_SOURCE_TOKEN) or --user NAME`);
  }
  if (kind === 'wiki' && spaces.length === 0) throw new ImportFromUsageError('a live wiki needs --space KEY (one or more)');
  if (kind !== 'wiki-export' && kind !== 'wiki' && spaces.length > 0) throw new ImportFromUsageError('--space is for a wiki');
  if (kind !== 'tracker' && fields.length > 0) throw new ImportFromUsageError('--field is for a tracker');
  return args;
}

type WithDeps = <T>(fn: (deps: MigrationDeps) => Promise<T>) => Promise<T>;

/** The import of one source. A wiki source is opened before the database, so input it refuses writes nothing. */
/** The bounds of what a source may make the import hold (WIKI_EXPORT_MAX_TEXT_MB, SOURCE_MAX_ANSWER_MB). */
interface SourceLimits {
  maxTextChars: number;
  maxAnswerBytes: number;
}

async function runSource(args: ImportFromArgs, withDeps: WithDeps, auth: SourceAuth | undefined, progress: (m: string) => void, limits: SourceLimits): Promise<MigrationReport> {
  const { maxTextChars, maxAnswerBytes } = limits;
  const sources = await import('../migration/import-sources.ts');
  if (args.source === 'tracker') {
    return withDeps((deps) => sources.importTrackerSource(deps, { url: args.target, auth: auth!, fields: args.fields, dryRun: args.dryRun, progress, maxAnswerBytes }));
  }
  const source =
    args.source === 'wiki-export'
      ? await sources.openWikiExportSource(args.target, { progress, maxTextChars })
      : await sources.openWikiRestSource({ url: args.target, auth: auth!, progress, maxAnswerBytes });
  try {
    const { importWikiSpaces } = await import('../migration/wiki/space-writer.ts');
    return await withDeps((deps) => importWikiSpaces(deps, source, { spaces: args.spaces, dryRun: args.dryRun, progress }));
  } finally {
    await source.close();
  }
}

/** A source's own errors (an export it cannot read, a live source that refuses) are one line that names the cause. */
function asOneLine(err: unknown): unknown {
  const e = err as { name?: string; message?: string };
  if (e && (e.name === 'WikiExportError' || e.name === 'SourceHttpError')) return new StartupError(String(e.message).split('\n')[0]!);
  return err;
}

/**
 * With the embedded database, a server running on the folder refuses the command at once, before an export of
 * gigabytes is read (opening the database would refuse it only then): the folder's lock is taken and given back.
 * An export's dry run is the exception (issue 41): it is answered with the server that holds the folder, which
 * runs it (dry, always) over its command socket; the folder is never taken from a running server.
 */
function refuseWhileServed(config: Config, args: ImportFromArgs): { folder: string; pid: number } | undefined {
  const folder = embeddedFolderOf(config);
  if (!folder || !fs.existsSync(folder)) return undefined;
  const pid = lockHolder(folder);
  if (pid !== undefined && args.dryRun && args.source === 'wiki-export') return { folder, pid };
  lockDataDir(folder)();
  return undefined;
}

/**
 * Runs the command and answers its exit code. `readPassword` reads --user's password (stdin's first line);
 * `loadConfig` is main's. A source that cannot be read answers one line naming the cause (exit 1).
 */
export async function importFromCommand(
  argv: string[],
  io: { readPassword: () => Promise<string>; loadConfig: () => Promise<Config>; out: (s: string) => void; err: (s: string) => void },
): Promise<number> {
  let args;
  try {
    args = parseImportFrom(argv, process.env);
  } catch (err) {
    if (!(err instanceof ImportFromUsageError)) throw err;
    io.err(`${err.message}\n${IMPORT_FROM_USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    io.out(`${IMPORT_FROM_USAGE}\n`);
    return 0;
  }
  if (args.source === 'wiki-export') {
    try {
      fs.accessSync(args.target, fs.constants.R_OK);
    } catch (err) {
      throw new StartupError(`Cannot read the export file ${args.target} (${(err as NodeJS.ErrnoException).code ?? 'error'}): check the path and that this user may read it.`);
    }
  }
  const auth: SourceAuth | undefined =
    args.source === 'wiki-export' ? undefined : args.token !== undefined ? { token: args.token } : { user: args.user!, password: await io.readPassword() };
  const config = await io.loadConfig();
  const server = refuseWhileServed(config, args);
  const { reportText, exitCodeOf } = await import('../migration/report-text.ts');
  const print = (report: MigrationReport) => {
    io.out(args.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
    return exitCodeOf(report);
  };
  if (server) {
    const { runOnRunningServer } = await import('./command-socket.client.ts');
    const cmd = { command: 'import-from wiki-export --dry-run', file: path.resolve(args.target), spaces: args.spaces } as const;
    io.err(`  the addon-pair server (pid ${server.pid}) holds ${server.folder}: it runs the dry run, and writes nothing\n`);
    return print(JSON.parse(await runOnRunningServer(server.folder, server.pid, cmd, (m) => io.err(`  ${m}\n`))) as MigrationReport);
  }
  const { withContext } = await import('./admin.commands.ts');
  const { migrationDeps } = await import('../migration/migration-deps.ts');
  const withDeps: WithDeps = async <T>(fn: (deps: MigrationDeps) => Promise<T>) => {
    let out: T | undefined;
    await withContext(config, async (services) => {
      out = await fn(migrationDeps(services));
    });
    return out as T;
  };
  let report: MigrationReport;
  try {
    report = await runSource(args, withDeps, auth, (m) => io.err(`  ${m}\n`), {
      maxTextChars: config.wikiExportMaxTextChars,
      maxAnswerBytes: config.sourceMaxAnswerBytes,
    });
  } catch (err) {
    throw asOneLine(err);
  }
  return print(report);
}
