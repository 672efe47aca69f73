import { perDescribe } from './per-describe.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { createEmptyPgDatabase } from './test-db.ts';

type Env = Record<string, string>;

/** For the nodes of a test whose subject is not the password hash (helpers/server-process.ts says what it does). */
export { CHEAP_HASHES } from './server-process.ts';

/**
 * For the nodes of a test whose subject is not webhook delivery: the server delivers itself, and starts no
 * delivery child process (on PostgreSQL each node starts one, about 0.3 s of CPU).
 */
export const INLINE_DELIVERY: Env = { WEBHOOK_DELIVERY: 'inline' };

export interface ServerClusterOptions<E extends readonly Env[]> {
  /** Part of the database's name (`addon_pair_<prefix>_<random>`), so a left-over database names its test. */
  prefix: string;
  /** The environment of every node; DATABASE_URL is the shared database. */
  env: Env;
  /** One entry per node: what that node adds to `env` (`{}` for nothing). */
  nodes: E;
  /**
   * 'in-turn' (the default): each node once the one before answers, so the later ones find the database
   * migrated and seeded. 'together': all at the same moment, racing each other through migrations and seeding.
   */
  start?: 'in-turn' | 'together';
  /** How long starting them all may take; by default a minute a node, `startServerProcess`'s own limit for one. */
  startTimeoutMs?: number;
}

/** The cluster of `useServerCluster`: one server process per entry of `nodes`, in its order. */
export interface ServerCluster<E extends readonly Env[]> {
  /** The shared database, for direct queries and command-line runs on it. */
  readonly databaseUrl: string;
  readonly nodes: { readonly [K in keyof E]: ServerProcess };
}

interface RunningCluster {
  databaseUrl: string;
  nodes: ServerProcess[];
  stop(): Promise<void>;
}

/**
 * Starts the nodes on an empty database of their own (they run the migrations themselves). When one fails
 * to start, the others are stopped and the database is dropped before the error is thrown: nobody else
 * holds them.
 */
async function startCluster(options: ServerClusterOptions<readonly Env[]>): Promise<RunningCluster> {
  const db = await createEmptyPgDatabase(options.prefix);
  const envs = options.nodes.map((own) => ({ ...options.env, DATABASE_URL: db.url, ...own }));
  const nodes: ServerProcess[] = [];
  // A node the test stopped or killed already answers `stop` at once.
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await db.drop();
  };
  try {
    if (options.start === 'together') {
      // Settled rather than Promise.all: the nodes that did start must be known, to stop them.
      const started = await Promise.allSettled(envs.map((env) => startServerProcess(env)));
      for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
      const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
    } else {
      for (const env of envs) nodes.push(await startServerProcess(env));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { databaseUrl: db.url, nodes, stop };
}

/**
 * Several server processes on one PostgreSQL database, as the nodes of a cluster, for the enclosing
 * `describe`: started in a `beforeAll`, stopped (and the database dropped) in an `afterAll`, both registered
 * here. The handle and its nodes forward to the running cluster, so they can be kept in a `const` at the top
 * of the `describe` and used in later hooks and in tests: `const [a, b] = useServerCluster({…}).nodes`.
 */
export function useServerCluster<const E extends readonly Env[]>(
  options: ServerClusterOptions<E>,
): ServerCluster<E> {
  const cluster = perDescribe(
    'useServerCluster: the cluster',
    () => startCluster(options),
    (running) => running.stop(),
    options.startTimeoutMs ?? 60_000 * options.nodes.length,
  );
  const node = (i: number): ServerProcess => cluster().nodes[i]!;
  const nodes = options.nodes.map((_, i): ServerProcess => ({
    get url() {
      return node(i).url;
    },
    get child() {
      return node(i).child;
    },
    output: () => node(i).output(),
    stop: () => node(i).stop(),
  }));
  return {
    get databaseUrl() {
      return cluster().databaseUrl;
    },
    // `map` keeps the tuple's length, which its return type does not say.
    nodes: nodes as unknown as ServerCluster<E>['nodes'],
  };
}
