import net from 'node:net';
import { StartupError } from '../platform/startup-error.ts';
import { commandSocketPath, type CommandProgress, type CommandReply, type SocketCommand } from './user-command.ts';

/** Longer than any command takes (a user's deletion with its clean-up), short of hanging a script for good. */
const REPLY_TIMEOUT_MS = 60_000;

/**
 * Sends a command to the embedded server that holds the data folder (process `pid`), which runs it
 * (command-socket.server.ts), and returns what the command prints. Loads `node:` modules only: the command
 * answers in the time the server takes, without loading knex, zod or PGlite here. The server's progress lines
 * (a dry run's) go to `progress`; a command that sends them has no time limit (a large export takes minutes),
 * the others answer within REPLY_TIMEOUT_MS.
 */
export function runOnRunningServer(dataDir: string, pid: number, cmd: SocketCommand, progress?: (m: string) => void): Promise<string> {
  const file = commandSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const conn = net.connect(file);
    // Every line but the last is progress; the last is the reply.
    let answer = '';
    conn.setEncoding('utf8');
    if (!progress) {
      conn.setTimeout(REPLY_TIMEOUT_MS, () => {
        conn.destroy();
        reject(new StartupError(`The addon-pair server (pid ${pid}) did not answer within ${REPLY_TIMEOUT_MS / 1000} s: check its log.`));
      });
    }
    conn.on('connect', () => conn.write(`${JSON.stringify(cmd)}\n`));
    conn.on('data', (chunk: string) => {
      answer += chunk;
      for (let end = answer.indexOf('\n'); end >= 0 && end < answer.length - 1; end = answer.indexOf('\n')) {
        const line = answer.slice(0, end);
        answer = answer.slice(end + 1);
        let said: Partial<CommandProgress> = {};
        try {
          said = JSON.parse(line) as Partial<CommandProgress>;
        } catch {
          // not progress: left for the reply's check below, which names it
          answer = `${line}\n${answer}`;
          break;
        }
        if (typeof said.progress === 'string') progress?.(said.progress);
      }
    });
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
