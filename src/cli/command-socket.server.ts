import fs from 'node:fs';
import net from 'node:net';
import { z } from 'zod';
import type { Logger } from '../platform/log/logger.ts';
import { AppError } from '../platform/http/app-error.ts';
import { describeFailure } from './describe-failure.ts';
import { runUserCommand, type UserCommandServices } from './user-commands.ts';
import type { WikiExportDryRunner } from './export-dry-run.ts';
import { commandSocketPath, MAX_SOCKET_PATH_BYTES, type CommandProgress, type CommandReply, type SocketCommand } from './user-command.ts';

/** A command is a few hundred bytes; anything much larger is not one of ours. */
const MAX_REQUEST_BYTES = 16 * 1024;
/** A client that connects and says nothing is dropped. */
const IDLE_TIMEOUT_MS = 10_000;
/** How long a stopping server waits for the commands under way. */
const CLOSE_WAIT_MS = 10_000;

// The shape only; the values are checked by the same schemas as the REST API's, inside runUserCommand.
const text = z.string().max(4096);
const socketCommand: z.ZodType<SocketCommand> = z.discriminatedUnion('command', [
  z.strictObject({
    command: z.literal('user add'),
    name: text,
    password: text,
    displayName: text.optional(),
    email: text.optional(),
    admin: z.boolean().optional(),
    sysadmin: z.boolean().optional(),
  }),
  z.strictObject({ command: z.literal('user passwd'), name: text, password: text }),
  z.strictObject({ command: z.literal('user unlock'), name: text }),
  z.strictObject({ command: z.literal('user delete'), name: text }),
  z.strictObject({
    command: z.literal('token create'),
    username: text,
    name: text,
    days: z.number().optional(),
    readOnly: z.boolean().optional(),
  }),
  // The space keys as the command line's --space took them; the space writer checks them as it does there.
  z.strictObject({ command: z.literal('import-from wiki-export --dry-run'), file: text, spaces: z.array(z.string().max(255)).max(1000) }),
]);

/** What the server runs for the command line: user and token commands, and an export's dry run. */
export interface SocketCommandHandlers {
  users: UserCommandServices;
  wikiExportDryRun: WikiExportDryRunner;
}

export interface CommandSocket {
  /** Stops taking commands and waits for the ones under way (before the database closes). */
  close(): Promise<void>;
}

/**
 * The embedded database serves one process, so a running server runs the command line's user and token
 * commands for it (issue 14), and an export's dry run (issue 41): the command line finds the server's pid in
 * the folder's lock and sends the command, one JSON line, to `addon-pair.sock` in the data folder; the server
 * runs it on its own services (its caches learn of the change at once) and answers one JSON line (a dry run
 * sends its progress lines first). Only the folder's owner may connect.
 * Returns undefined, with a warning, when the socket cannot be made (a folder path too long for a socket
 * address, say): the command line then says that the server must be stopped, as it did before.
 */
export async function listenForCommands(dataDir: string, services: SocketCommandHandlers, log: Logger): Promise<CommandSocket | undefined> {
  const file = commandSocketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH_BYTES) {
    log.warn({ file }, 'the data folder path is too long for a command socket: user and token commands need the server stopped');
    return undefined;
  }
  // Left by a server that died: this process holds the folder's lock, so no live server uses it.
  fs.rmSync(file, { force: true });
  const underWay = new Set<Promise<void>>();
  // Connections that have not sent their command yet: a stopping server drops them at once.
  const waiting = new Set<net.Socket>();
  const open = new Set<net.Socket>();
  const server = net.createServer((conn) => {
    waiting.add(conn);
    open.add(conn);
    conn.once('close', () => {
      waiting.delete(conn);
      open.delete(conn);
    });
    const handled = serveConnection(conn, services, log, () => waiting.delete(conn)).finally(() => underWay.delete(handled));
    underWay.add(handled);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // The socket is created inside listen(), synchronously: with this umask it is never open to others.
      const umask = process.umask(0o177);
      try {
        server.listen(file, () => resolve());
      } finally {
        process.umask(umask);
      }
    });
    fs.chmodSync(file, 0o600);
  } catch (err) {
    // Serving matters more than this convenience: the command line then says that the server must be stopped.
    server.close();
    log.warn({ err, file }, 'cannot take user and token commands from the command line');
    return undefined;
  }
  log.debug({ file }, 'taking user and token commands from the command line');
  let closing: Promise<void> | undefined;
  return {
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const conn of waiting) conn.destroy();
        // A command under way finishes before the database closes, unless it hangs.
        const cap = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref());
        await Promise.race([Promise.allSettled([...underWay]), cap]);
        for (const conn of open) conn.destroy();
        await closed;
        fs.rmSync(file, { force: true });
      })()),
  };
}

async function serveConnection(conn: net.Socket, services: SocketCommandHandlers, log: Logger, received: () => void): Promise<void> {
  // Settles also when the client has gone (no 'finish' then), so that close() never waits for it.
  const reply = (r: CommandReply) =>
    new Promise<void>((resolve) => {
      conn.once('close', () => resolve());
      conn.end(`${JSON.stringify(r)}\n`, () => resolve());
    });
  conn.on('error', () => undefined); // a client that went away: nothing to answer
  const line = await readLine(conn);
  received();
  if (line === undefined) return void conn.destroy();
  if (line === null) return reply({ ok: false, error: 'The command is too large.' });
  let cmd: SocketCommand;
  try {
    const parsed = socketCommand.safeParse(JSON.parse(line));
    if (!parsed.success) return reply({ ok: false, error: 'The server did not understand the command: run the same version of addon-pair as the server.' });
    cmd = parsed.data;
  } catch {
    return reply({ ok: false, error: 'The command is not JSON.' });
  }
  try {
    let stdout: string;
    if (cmd.command === 'import-from wiki-export --dry-run') {
      // A dry run of a large export takes minutes: its progress goes to the command line as it comes.
      const progress = (m: string) => void conn.write(`${JSON.stringify({ progress: m } satisfies CommandProgress)}\n`);
      stdout = await services.wikiExportDryRun(cmd, progress);
      log.info({ command: cmd.command, file: cmd.file }, 'ran a command of the command line');
    } else {
      stdout = await runUserCommand(services.users, cmd);
      // Who was changed, never a password or a token.
      log.info({ command: cmd.command, user: 'username' in cmd ? cmd.username : cmd.name }, 'ran a command of the command line');
    }
    await reply({ ok: true, stdout });
  } catch (err) {
    if (!(err instanceof AppError)) log.error({ err, command: cmd.command }, 'a command of the command line failed');
    await reply({ ok: false, error: describeFailure(err) });
  }
}

/** The first line the client sends; undefined when it closes or idles first, null when it is too long. */
function readLine(conn: net.Socket): Promise<string | undefined | null> {
  return new Promise((resolve) => {
    let buffered = '';
    conn.setEncoding('utf8');
    conn.setTimeout(IDLE_TIMEOUT_MS, () => resolve(undefined));
    conn.on('end', () => resolve(undefined));
    conn.on('close', () => resolve(undefined));
    conn.on('data', (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end >= 0) {
        conn.pause();
        conn.setTimeout(0);
        resolve(buffered.slice(0, end));
      } else if (buffered.length > MAX_REQUEST_BYTES) {
        conn.pause();
        resolve(null);
      }
    });
  });
}
