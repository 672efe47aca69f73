// Starts the real addon-pair server (`src/main.ts serve`) for the bench.
import { freePort, spawnNode, waitForHttp, type RunningChild } from './child.ts';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'bench-admin-pw';

/**
 * The lock-out after MAX_AUTH_ATTEMPTS failed logins would turn the
 * `basic-wrong-password` scenario into a "user is locked" benchmark after a few
 * requests. Raising it keeps every request on the full password check, which is
 * the path worth measuring (and proves a wrong password is refused every time).
 */
export const BENCH_MAX_AUTH_ATTEMPTS = '1000000000';
/**
 * For the same reason, no limit of failed logins per client address (LOGIN_FAILURES_PER_ADDRESS): every bench
 * request comes from 127.0.0.1, and `basic-wrong-password` would measure 429s after 30 requests. A scenario
 * about that limit sets it in its own `extraEnv`.
 */
export const BENCH_LOGIN_FAILURES_PER_ADDRESS = '0';
/**
 * And no rate limits: one credential asks for thousands of requests a second here, far above the defaults made
 * for a fleet. Their cost is measured on a variant server with limits that are never reached
 * (scenarios/rate-limits.ts).
 */
export const BENCH_RATE_LIMITS = 'off';

/** As `npm start` and the Dockerfile set it (see README, Benchmarks); the caller's own value wins. */
export const SERVER_MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX ?? '2';
/** As `npm start` sets it: two libuv threads, so at most two 16 MB scrypt hashes at once (docs/operations.md). */
export const SERVER_UV_THREADPOOL_SIZE = process.env.UV_THREADPOOL_SIZE ?? '2';
/** As `npm start` sets it: large malloc blocks go back to the system when freed (docs/operations.md). */
export const SERVER_MALLOC_MMAP_THRESHOLD = process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072';

export type Storage = { kind: 'postgres'; databaseUrl: string } | { kind: 'pglite' };

/** The environment every bench server gets (see README, "What happens"), on `port`; also used by bench/scale. */
export function serverEnv(port: number, storage: Storage, extraEnv: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    ADMIN_USERNAME,
    ADMIN_PASSWORD,
    DEMO: '0',
    LOG_LEVEL: 'warn',
    MAX_AUTH_ATTEMPTS: BENCH_MAX_AUTH_ATTEMPTS,
    LOGIN_FAILURES_PER_ADDRESS: BENCH_LOGIN_FAILURES_PER_ADDRESS,
    RATE_LIMITS: BENCH_RATE_LIMITS,
    MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
    UV_THREADPOOL_SIZE: SERVER_UV_THREADPOOL_SIZE,
    MALLOC_MMAP_THRESHOLD_: SERVER_MALLOC_MMAP_THRESHOLD,
    ...extraEnv,
  };
  // Override whatever the caller's shell exports. DATABASE_URL is set to '' (which the
  // config treats as unset) rather than deleted, so a developer's .env cannot fill it in.
  if (storage.kind === 'postgres') {
    env.DATABASE_URL = storage.databaseUrl;
    delete env.DATA_DIR;
  } else {
    env.DATABASE_URL = '';
    env.DATA_DIR = 'memory://';
  }
  return env;
}

/** `entry` is relative to the repo root; normally `src/main.ts`. */
export async function startAppServer(
  repoRoot: string,
  storage: Storage,
  entry: string,
  extraEnv: Record<string, string> = {},
  /** Names the log file (`$TMPDIR/addon-pair-bench-<name>-<pid>.log`); several servers need several names. */
  name = Object.keys(extraEnv).length > 0 ? 'server-variant' : 'server',
): Promise<RunningChild> {
  const port = await freePort();
  const env = serverEnv(port, storage, extraEnv);

  const { child, running } = spawnNode(name, [entry, 'serve'], { cwd: repoRoot, env, port });
  // 60 s: PGlite alone needs 3-4 s to create on this 2-core machine, plus migrations.
  await waitForHttp(child, running, '/status', 60_000);
  return running;
}
