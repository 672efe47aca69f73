// Command-line options of `npm run bench -- …`. Hand-rolled because there are four flags.

export interface BenchOptions {
  pglite: boolean;
  durationSec: number;
  connections: number;
  only: string | null;
  warmupSec: number;
  /** Turns of scenario and Express baseline per HTTP scenario (see measurePaired in run.ts). */
  rounds: number;
}

const USAGE = `usage: npm run bench -- [--pglite] [--duration <s>] [--warmup <s>] [--connections <n>] [--rounds <n>] [--only <substring>]`;

function positiveNumber(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n) || n <= 0) {
    throw new Error(`${flag} needs a positive number\n${USAGE}`);
  }
  return n;
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  // 5 s of warm-up per scenario: the targets are for a warm server (JIT-compiled hot paths, filled caches).
  const options: BenchOptions = { pglite: false, durationSec: 10, connections: 32, only: null, warmupSec: 5, rounds: 10 };
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
