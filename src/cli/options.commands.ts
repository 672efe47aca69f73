import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import type { Config } from '../config.ts';
import { StartupError } from '../platform/startup-error.ts';
import type { ScopeIds } from '../fieldeditor/access/ids.ts';
import type { SyncAnswer } from '../fieldeditor/options/options-sync.service.ts';

/**
 * `addon-pair options export|sync` (issue 27): the field editor's export and sync of one context's option
 * tree, with the same files as the REST endpoints. With `--url` (and `--token`) it calls a running server
 * over REST; without, it opens the database of the configuration and acts as `--user` (whose grants decide,
 * as for a request). Progress goes to standard error; the export's file to `--output` or standard output,
 * the sync's diff (JSON) to standard output.
 */
export interface OptionsCommand {
  action: 'export' | 'sync';
  field: string;
  context: string;
  /** sync: the file to read. */
  file?: string | undefined;
  format?: 'json' | 'csv' | undefined;
  output?: string | undefined;
  bom: boolean;
  /** sync: write the diff (after a preview), not only preview it. */
  apply: boolean;
  allowDelete: boolean;
  ifMatch?: string | undefined;
  url?: string | undefined;
  token?: string | undefined;
  user?: string | undefined;
}

const say = (text: string) => process.stderr.write(`${text}\n`);

const formatOf = (cmd: OptionsCommand, file?: string): 'json' | 'csv' =>
  cmd.format ?? (file && path.extname(file).toLowerCase() === '.csv' ? 'csv' : 'json');

/** One line per kind of change, for standard error. */
export function summary(diff: Omit<SyncAnswer, 'etag' | 'applied'>): string {
  const kinds = ['create', 'rename', 'move', 'disable', 'enable', 'delete', 'unlisted'] as const;
  return kinds.map((k) => `${k} ${diff[k].length}`).join(', ');
}

export async function optionsCommand(config: Config | undefined, cmd: OptionsCommand): Promise<void> {
  if (cmd.url !== undefined) return cmd.action === 'export' ? restExport(cmd) : restSync(cmd);
  if (!config) throw new StartupError('no configuration');
  if (!cmd.user) throw new StartupError('On the database, name the user the command acts as with --user NAME (its grants decide); or call a server with --url and --token.');
  const { withContext } = await import('./admin.commands.ts');
  const { asAuthUser } = await import('../platform/auth/authenticator.ts');
  const { createAuthStore } = await import('../directory/auth-store.repository.ts');
  const { parseScopeIds } = await import('../fieldeditor/access/ids.ts');
  const ids = parseScopeIds(cmd.field, cmd.context);
  const text = cmd.action === 'sync' ? readSyncFile(cmd) : undefined;
  await withContext(config, async (services) => {
    const found = (await createAuthStore(services.db.knex).findLogin(cmd.user!)).user;
    if (!found) throw new StartupError(`There is no user ${cmd.user}.`);
    const { passwordHash: _hash, ...directoryUser } = found;
    const user = asAuthUser(directoryUser, 'basic');
    if (cmd.action === 'export') return dbExport(services.fieldeditor.optionsExport, user, ids, cmd);
    // As the server does (issue 44): the right first, then the file read under the field's bounds.
    const { levels } = await services.fieldeditor.optionsSync.admit(user, ids);
    const { readSyncText } = await import('../fieldeditor/options/options-sync.upload.ts');
    const file = await readSyncText([text!], formatOf(cmd, cmd.file!) === 'csv' ? 'csv' : 'json', levels);
    const answer = await services.fieldeditor.optionsSync.run(user, ids, { dryRun: true, allowDelete: cmd.allowDelete, ifMatch: cmd.ifMatch }, file);
    say(`preview: ${summary(answer)} (ETag ${answer.etag})`);
    if (!cmd.apply) return void process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    const applied = await services.fieldeditor.optionsSync.run(user, ids, { dryRun: false, allowDelete: cmd.allowDelete, ifMatch: answer.etag }, file);
    say(`applied: ${summary(applied)} (operation ${applied.operationId})`);
    process.stdout.write(`${JSON.stringify(applied, null, 2)}\n`);
  });
}

/** The file's text (read whole: a local file the operator names, not an upload). */
function readSyncFile(cmd: OptionsCommand): string {
  const file = cmd.file!;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new StartupError(`Cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}): check the path.`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Where the export goes: the --output file, or standard output; waits when it is full. */
function outputStream(cmd: OptionsCommand): NodeJS.WritableStream & { close?: () => void } {
  return cmd.output ? fs.createWriteStream(cmd.output) : process.stdout;
}

async function writeOut(out: NodeJS.WritableStream, text: string): Promise<boolean> {
  if (text !== '' && !out.write(text)) await once(out, 'drain');
  return true;
}

async function finish(out: NodeJS.WritableStream, cmd: OptionsCommand): Promise<void> {
  if (!cmd.output) return;
  out.end();
  await once(out, 'finish');
}

async function dbExport(
  service: import('../fieldeditor/options/options-export.service.ts').OptionsExport,
  user: import('../platform/auth/auth-user.ts').AuthUser,
  ids: ScopeIds,
  cmd: OptionsCommand,
): Promise<void> {
  const out = outputStream(cmd);
  let last = 0;
  await service.run(user, ids, { format: formatOf(cmd, cmd.output), bom: cmd.bom }, {
    begin: ({ etag, fileName }) => {
      say(`exporting ${fileName} (ETag ${etag})`);
      return true;
    },
    write: (text) => writeOut(out, text),
    progress: (rows) => {
      if (rows - last >= 10_000) say(`${(last = rows)} options`);
      last = rows;
    },
  });
  await finish(out, cmd);
  say(`exported ${last} options`);
}

// ---- Over REST ----

function endpoint(cmd: OptionsCommand, what: string): string {
  const base = cmd.url!.replace(/\/+$/, '');
  const enc = encodeURIComponent;
  return `${base}/rest/trackercustomfieldeditorplugin/1/user/customfields/${enc(cmd.field)}/contexts/${enc(cmd.context)}/options/${what}`;
}

function headers(cmd: OptionsCommand): Record<string, string> {
  if (!cmd.token) throw new StartupError('With --url, pass a personal access token with --token (or ADDON_PAIR_TOKEN in the environment).');
  return { Authorization: `Bearer ${cmd.token}` };
}

/** A refusal of the server as one line: its status and the field editor's message and errors. */
async function refused(res: Response): Promise<StartupError> {
  const text = await res.text();
  let detail = text.slice(0, 500);
  try {
    const body = JSON.parse(text) as { message?: string; errors?: { name: string; message: string }[] };
    detail = [body.message, ...(body.errors ?? []).slice(0, 20).map((e) => `${e.name}: ${e.message}`)].filter(Boolean).join('\n  ');
  } catch {
    // not the field editor's JSON: the text as it came
  }
  return new StartupError(`The server answered ${res.status}: ${detail}`);
}

async function restExport(cmd: OptionsCommand): Promise<void> {
  const format = formatOf(cmd, cmd.output);
  const res = await fetch(`${endpoint(cmd, 'export')}?format=${format}&bom=${cmd.bom}`, { headers: headers(cmd) });
  if (!res.ok || !res.body) throw await refused(res);
  say(`exporting (ETag ${res.headers.get('etag')})`);
  const out = outputStream(cmd);
  let bytes = 0;
  let lines = 0;
  // ignoreBOM: the server's CSV starts with a byte-order mark (unless --no-bom asked it not to), which spreadsheet
  // programs need to read UTF-8; a default TextDecoder would silently drop it from the file.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    const text = decoder.decode(chunk, { stream: true });
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    await writeOut(out, text);
  }
  await writeOut(out, decoder.decode());
  await finish(out, cmd);
  say(format === 'csv' ? `exported ${Math.max(0, lines - 1)} options (${bytes} bytes)` : `exported ${bytes} bytes`);
}

async function restSync(cmd: OptionsCommand): Promise<void> {
  const file = cmd.file!;
  let body: Buffer;
  try {
    body = fs.readFileSync(file);
  } catch (err) {
    throw new StartupError(`Cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}): check the path.`);
  }
  const type = formatOf(cmd, file) === 'csv' ? 'text/csv' : 'application/json';
  const post = async (dryRun: boolean, ifMatch: string | undefined) => {
    const res = await fetch(`${endpoint(cmd, 'sync')}?dryRun=${dryRun}&allowDelete=${cmd.allowDelete}`, {
      method: 'POST',
      headers: { ...headers(cmd), 'Content-Type': type, ...(ifMatch ? { 'If-Match': ifMatch } : {}) },
      body: new Uint8Array(body),
    });
    if (!res.ok) throw await refused(res);
    return (await res.json()) as SyncAnswer;
  };
  say(`sending ${file} (${body.length} bytes) for a preview`);
  const preview = await post(true, cmd.ifMatch);
  say(`preview: ${summary(preview)} (ETag ${preview.etag})`);
  if (!cmd.apply) return void process.stdout.write(`${JSON.stringify(preview, null, 2)}\n`);
  const applied = await post(false, preview.etag);
  say(`applied: ${summary(applied)} (operation ${applied.operationId})`);
  process.stdout.write(`${JSON.stringify(applied, null, 2)}\n`);
}
