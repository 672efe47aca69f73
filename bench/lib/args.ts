// Command-line options of `npm run bench -- …`. Hand-rolled: a dozen flags, each read once.

export interface BenchOptions {
  pglite: boolean;
  durationSec: number;
  connections: number;
  only: string | null;
  warmupSec: number;
  /** Turns of scenario and Express baseline per HTTP scenario (see measurePaired in run.ts). */
  rounds: number;
  /** Node counts of the multi-process scenario (bench/lib/cluster.ts). */
  clusterNodes: number[];
  /** Forward and backward passes over clusterNodes. */
  clusterRounds: number;
  /**
   * `--compare <entry>`: another build of the server (its `dist/main.mjs`, say), against which every HTTP
   * scenario is measured in turns instead of Express (bench/lib/compare.ts). null: a normal run.
   */
  compareEntry: string | null;
  /**
   * `--compare-env KEY=VALUE` (repeatable): environment of the `--compare` server only, over what both servers
   * get (e.g. `RATE_LIMITS=on` with limits never reached, on a build whose old build has no limiter).
   */
  compareEnv: Record<string, string>;
  /** `--iterations <n>`: timed calls of every selected latency scenario (per server under `--compare`); null: each scenario's own. */
  iterations: number | null;
}

/** `1,2,4` → [1, 2, 4]: positive whole numbers, each once, ascending. Throws on anything else. */
export function parseNodeList(value: string | undefined): number[] {
  const parts = (value ?? '').split(',').map((p) => p.trim());
  const nodes = parts.map(Number);
  if (parts.length === 0 || nodes.some((n, i) => !parts[i] || !Number.isInteger(n) || n < 1 || n > 64)) {
    throw new Error(`--cluster-nodes needs a comma-separated list of node counts between 1 and 64, e.g. 1,2,4,8\n${USAGE}`);
  }
  return [...new Set(nodes)].sort((a, b) => a - b);
}

/**
 * `--only a,b,=c`: whether the scenario `name` is selected: it contains one of the parts, or is exactly a part
 * written `=name` (`=fieldeditor-options-create` without `fieldeditor-options-create-4-writers`).
 */
export function onlyMatches(only: string, name: string): boolean {
  return only.split(',').some((p) => p !== '' && (p.startsWith('=') ? name === p.slice(1) : name.includes(p)));
}

const USAGE = `usage: npm run bench -- [--pglite] [--duration <s>] [--warmup <s>] [--connections <n>] [--rounds <n>] [--only <substring>] [--cluster-nodes 1,2,4] [--cluster-rounds <n>] [--compare <server entry>] [--compare-env KEY=VALUE] [--iterations <n>]`;

function positiveNumber(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n) || n <= 0) {
    throw new Error(`${flag} needs a positive number\n${USAGE}`);
  }
  return n;
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  // 5 s of warm-up per scenario: the targets are for a warm server (JIT-compiled hot paths, filled caches).
  const options: BenchOptions = {
    pglite: false,
    durationSec: 10,
    connections: 32,
    only: null,
    warmupSec: 5,
    rounds: 10,
    clusterNodes: [1, 2, 4],
    clusterRounds: 2,
    compareEntry: null,
    compareEnv: {},
    iterations: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case '--pglite':
        options.pglite = true;
        break;
      case '--duration':
        options.durationSec = positiveNumber(arg, argv[++i]);
        break;
      case '--warmup':
        options.warmupSec = positiveNumber(arg, argv[++i]);
        break;
      case '--connections':
        options.connections = Math.round(positiveNumber(arg, argv[++i]));
        break;
      case '--rounds':
        options.rounds = Math.round(positiveNumber(arg, argv[++i]));
        break;
      case '--cluster-nodes':
        options.clusterNodes = parseNodeList(argv[++i]);
        break;
      case '--cluster-rounds':
        options.clusterRounds = Math.round(positiveNumber(arg, argv[++i]));
        break;
      case '--compare': {
        const value = argv[++i];
        if (!value) throw new Error(`--compare needs a server entry, e.g. ../before/dist/main.mjs\n${USAGE}`);
        options.compareEntry = value;
        break;
      }
      case '--compare-env': {
        const value = argv[++i] ?? '';
        const eq = value.indexOf('=');
        if (eq < 1) throw new Error(`--compare-env needs KEY=VALUE, e.g. RATE_LIMITS=on\n${USAGE}`);
        options.compareEnv[value.slice(0, eq)] = value.slice(eq + 1);
        break;
      }
      case '--iterations':
        options.iterations = Math.round(positiveNumber(arg, argv[++i]));
        break;
      case '--only': {
        const value = argv[++i];
        if (!value) throw new Error(`--only needs a scenario name substring\n${USAGE}`);
        options.only = value;
        break;
      }
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${String(arg)}\n${USAGE}`);
    }
  }
  return options;
}
