import net from 'node:net';
import { StartupError } from '../platform/startup-error.ts';
import { commandSocketPath, type CommandReply, type UserCommand } from './user-command.ts';

/** Longer than any command takes (a user's deletion with its clean-up), short of hanging a script for good. */
const REPLY_TIMEOUT_MS = 60_000;

/**
 * Sends a user or token command to the embedded server that holds the data folder (process `pid`), which
 * runs it (command-socket.server.ts), and returns what the command prints. Loads `node:` modules only: the
 * command answers in the time the server takes, without loading knex, zod or PGlite here.
 */
export function runOnRunningServer(dataDir: string, pid: number, cmd: UserCommand): Promise<string> {
  const file = commandSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const conn = net.connect(file);
    let answer = '';
    conn.setEncoding('utf8');
    conn.setTimeout(REPLY_TIMEOUT_MS, () => {
      conn.destroy();
      reject(new StartupError(`The addon-pair server (pid ${pid}) did not answer within ${REPLY_TIMEOUT_MS / 1000} s: check its log.`));
    });
    conn.on('connect', () => conn.write(`${JSON.stringify(cmd)}\n`));
    conn.on('data', (chunk: string) => (answer += chunk));
    conn.on('error', (err: NodeJS.ErrnoException) => reject(unreachable(dataDir, pid, err.code)));
    conn.on('end', () => {
      let reply: CommandReply;
      try {
        reply = JSON.parse(answer) as CommandReply;
      } catch {
        return reject(unreachable(dataDir, pid, 'no answer'));
      }
      if (reply.ok) resolve(reply.stdout);
      else reject(new StartupError(reply.error));
    });
  });
}

function unreachable(dataDir: string, pid: number, why: string | undefined): StartupError {
  const busy = `The data directory ${dataDir} is in use by another addon-pair process (pid ${pid})`;
  if (why === 'EACCES' || why === 'EPERM')
    return new StartupError(`${busy}, whose command socket belongs to another user (${why}): run the command as the user that runs the server.`);
  return new StartupError(
    `${busy}, which did not take the command (${why ?? 'error'}): if it is still starting, try again when it answers; ` +
      'otherwise stop that server first, or use the REST API.',
  );
}
