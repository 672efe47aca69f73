import v8 from 'node:v8';

/**
 * Keeps PGlite's WebAssembly on V8's baseline compiler (Liftoff) for a process that runs for seconds at most:
 * a command-line command on the embedded database, or the child that creates a new data folder. By default
 * V8 recompiles the hot functions with its optimising compiler on background threads; in a run this short
 * that work competes with the command for the machine's cores and holds the process at exit until it ends.
 * Measured on the bundle (issue 14): PGlite alone opening a folder, `select 1`, closing, 0.84 s → 0.57 s from
 * spawn to exit (`bench/cli-timing.ts` measures the commands); initdb's child, 4.8–5.8 s → 4.0–4.3 s.
 * Unlike `--liftoff-only`, a huge tiering budget still lets V8 use the optimising compiler for a function the
 * baseline compiler cannot compile. And V8 checks each function of the module when it first compiles it
 * rather than all 8.7 MB up front (lazy validation: PGlite's compile took 63 ms of CPU, now 18 ms; a short run
 * calls a fraction of PostgreSQL's functions). Must run before PGlite compiles its module. The server does
 * not call it: over hours, optimised code is what keeps queries fast. Even a budget 100 times V8's, which
 * made its first start about 1 s shorter, left the bench's option writes on PGlite 7–70 % slower after
 * 10,000 creates (docs/operations.md, "Command line").
 */
export function keepWebAssemblyOnBaselineCompiler(): void {
  v8.setFlagsFromString(SHORT_RUN_V8_FLAGS);
}

/** The V8 settings themselves; the benchmark gives them to its PGlite-alone floor, so that both start PGlite alike. */
export const SHORT_RUN_V8_FLAGS = '--wasm-tiering-budget=2000000000 --wasm-lazy-validation';
