import path from 'node:path';

/**
 * A command that changes users or tokens, as the command line parsed it. Plain data, so that it can also be
 * sent to a running embedded server over its command socket (command-socket.client.ts). Types and `node:`
 * modules only: the client side loads nothing else.
 */
export type UserCommand =
  | {
      command: 'user add';
      name: string;
      password: string;
      displayName?: string;
      email?: string;
      admin?: boolean;
      sysadmin?: boolean;
    }
  | { command: 'user passwd'; name: string; password: string }
  | { command: 'user unlock'; name: string }
  | { command: 'user delete'; name: string }
  | { command: 'token create'; username: string; name: string; days?: number; readOnly?: boolean };

/**
 * `import-from wiki-export FILE --dry-run` beside a running embedded server (issue 41): the server reads the
 * file where it lies (an absolute path; the socket's peer is the folder's owner, who may read it as well) and
 * runs the import in a transaction it rolls back. Always a dry run: the socket has no way to ask for more.
 */
export interface WikiExportDryRunCommand {
  command: 'import-from wiki-export --dry-run';
  file: string;
  spaces: string[];
}

/** Everything the command line may send to a running server. */
export type SocketCommand = UserCommand | WikiExportDryRunCommand;

/** The server's answer: the command's standard output, or the one-line failure the command line prints. */
export type CommandReply = { ok: true; stdout: string } | { ok: false; error: string };

/** A line the server may send before its reply while a long command runs: what the command line prints on stderr. */
export interface CommandProgress {
  progress: string;
}

/**
 * The socket a running embedded server listens on, beside its lock in the data folder. Only the owner of the
 * folder may connect (mode 0600): whoever may write the folder may change the database anyway.
 */
export const commandSocketPath = (dataDir: string) => path.resolve(dataDir, 'addon-pair.sock');

/** Longer paths do not fit a Unix socket address (108 bytes on Linux, 104 on macOS, with the final NUL). */
export const MAX_SOCKET_PATH_BYTES = 103;
