// Baseline 3: nginx serving a static file with the same bytes as the body the scenario downloads (E1), in
// three variants (NginxAuth): behind `auth_basic` with an apr1 password (1,000 MD5 rounds on every request),
// behind `auth_basic` with a `{SHA}` password (one SHA-1), and without authentication. apr1 alone flatters E1:
// most of nginx's time goes into MD5 then, not into serving. Not a Node script like the other baselines: the
// harness writes a config into a temp dir and runs /usr/sbin/nginx on it (bench/lib/child.ts), in one process
// (`master_process off`), so that, like every other server of the bench, it has one core's worth of work and
// its pid is the one that serves.
//
// It needs Debian's `nginx-light` and `apache2-utils` (for htpasswd): see NGINX_INSTALL_HINT. Without them
// the scenarios run as usual and their nginx targets are reported as SKIP with that hint.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort, spawnProcess, waitForHttp, type RunningChild } from '../lib/child.ts';

export const NGINX_BIN = process.env.BENCH_NGINX || '/usr/sbin/nginx';
export const NGINX_INSTALL_HINT = 'apt-get install -y nginx-light apache2-utils';
/** The path nginx serves the body under (behind auth_basic); `/health` answers 200 without credentials. */
export const NGINX_BODY_PATH = '/body';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, command))) return join(dir, command);
  }
  return null;
}

/** null when nginx and htpasswd are there, else why the nginx baseline is skipped (with the install line). */
export function nginxMissing(): string | null {
  const missing = [executable(NGINX_BIN) ? null : NGINX_BIN, onPath('htpasswd') ? null : 'htpasswd'].filter(Boolean);
  if (missing.length === 0) return null;
  return `nginx baseline skipped: ${missing.join(' and ')} not found (install: ${NGINX_INSTALL_HINT})`;
}

/**
 * How nginx checks the bench admin's Basic credentials: `apr1` (`htpasswd -m`: MD5 with 1,000 rounds), `sha`
 * (`htpasswd -s`: `{SHA}`, one unsalted SHA-1), or `none` (no auth_basic; the same header is sent and ignored).
 * nginx keeps no cache of verified credentials, so a password scheme costs its hash on every request.
 */
export type NginxAuth = 'apr1' | 'sha' | 'none';

/** The htpasswd flag that makes each password scheme (none for `none`: no password file). */
export const HTPASSWD_FLAG: Record<Exclude<NginxAuth, 'none'>, string> = { apr1: '-m', sha: '-s' };

export interface NginxConfigInput {
  /** The temp dir: config, pid, logs, temp paths, htpasswd and the served file all live in it. */
  dir: string;
  port: number;
  contentType: string;
  /** Default `apr1`, the baseline issue 15's target was set against. */
  auth?: NginxAuth;
}

/** The whole nginx.conf. Pure, so that it is unit-tested (test/unit/bench-nginx.test.ts). */
export function nginxConfig({ dir, port, contentType, auth = 'apr1' }: NginxConfigInput): string {
  const q = (s: string): string => `"${s.replace(/["\\]/g, '\\$&')}"`;
  const p = (name: string): string => q(join(dir, name));
  return [
    // One process that serves (no master): its pid is the one the bench samples and waits on, like Node's.
    'daemon off;',
    'master_process off;',
    'worker_processes 1;',
    `pid ${p('nginx.pid')};`,
    `error_log ${p('error.log')} warn;`,
    'events { worker_connections 4096; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${p('client_body')};`,
    `  proxy_temp_path ${p('proxy')};`,
    `  fastcgi_temp_path ${p('fastcgi')};`,
    `  uwsgi_temp_path ${p('uwsgi')};`,
    `  scgi_temp_path ${p('scgi')};`,
    '  types { }',
    `  default_type ${q(contentType)};`,
    '  sendfile on;',
    // Node keeps a connection for any number of requests; nginx's default closes it after 1000.
    '  keepalive_requests 1000000;',
    '  keepalive_timeout 60s;',
    '  server {',
    `    listen 127.0.0.1:${port};`,
    `    root ${p('www')};`,
    "    location = /health { return 200 'ok'; }",
    `    location = ${NGINX_BODY_PATH} {`,
    // The password file's scheme (apr1 or {SHA}) decides the cost; the directives are the same.
    ...(auth === 'none' ? [] : ['      auth_basic "addon-pair bench";', `      auth_basic_user_file ${p('htpasswd')};`]),
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

export interface NginxBaseline {
  server: RunningChild;
  /** The path to request, with `Authorization: Basic <the same user and password>`. */
  path: string;
}

/**
 * Starts nginx serving `body` at NGINX_BODY_PATH, behind auth_basic for `username`/`password` (a hash made by
 * `htpasswd -b -c` with HTPASSWD_FLAG[auth], checked on every request) unless `auth` is `none`.
 * `stop()` ends it and removes the temp dir.
 */
export async function startNginx(
  body: Uint8Array,
  contentType: string,
  username: string,
  password: string,
  auth: NginxAuth = 'apr1',
): Promise<NginxBaseline> {
  const dir = await mkdtemp(join(tmpdir(), `addon-pair-bench-nginx-${auth}-`));
  try {
    await mkdir(join(dir, 'www'));
    await writeFile(join(dir, 'www', NGINX_BODY_PATH.slice(1)), body);
    if (auth !== 'none') {
      execFileSync('htpasswd', ['-b', '-c', HTPASSWD_FLAG[auth], join(dir, 'htpasswd'), username, password], { stdio: 'ignore' });
    }
    const port = await freePort();
    await writeFile(join(dir, 'nginx.conf'), nginxConfig({ dir, port, contentType, auth }));
    const { child, running } = spawnProcess(
      `nginx-${auth}`,
      NGINX_BIN,
      // -e: the error log before the config is read (nginx would try /var/log/nginx first).
      ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
      { cwd: dir, env: process.env, port },
    );
    await waitForHttp(child, running, '/health', 20_000);
    const stop = running.stop.bind(running);
    running.stop = async (graceMs?: number) => {
      await stop(graceMs);
      await rm(dir, { recursive: true, force: true });
    };
    return { server: running, path: NGINX_BODY_PATH };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
