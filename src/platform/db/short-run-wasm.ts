import v8 from 'node:v8';

/**
 * V8's settings for PGlite's WebAssembly (8.7 MB of PostgreSQL), set before PGlite compiles its module.
 *
 * By default V8 runs a function on its baseline compiler (Liftoff) and recompiles it with its optimising
 * compiler (TurboFan), on background threads, once the function has run for a budget of about 1.8 million
 * (a rough count of bytes executed). That suits a long run; at a start, PostgreSQL's start-up and the
 * migrations make hundreds of functions hot for a moment, and on two cores their recompilation competes with
 * the start itself. And by default V8 validates the whole module up front; lazy validation checks each
 * function when it is first compiled instead (PGlite's compile took 63 ms of CPU, then 18 ms), and a run
 * calls a fraction of PostgreSQL's functions.
 */

/**
 * A process that runs for seconds at most (a command-line command on the embedded database, or the child that
 * creates a new data folder) keeps the baseline compiler: a budget no function reaches in such a run. Unlike
 * `--liftoff-only`, a function the baseline compiler cannot compile still gets the optimising one. Measured on
 * the bundle (issue 14): PGlite alone opening a folder, `select 1`, closing, 0.84 s → 0.57 s from spawn to
 * exit (`bench/cli-timing.ts` measures the commands); initdb's child, 4.8–5.8 s → 4.0–4.3 s.
 */
export function keepWebAssemblyOnBaselineCompiler(): void {
  v8.setFlagsFromString(SHORT_RUN_V8_FLAGS);
}

/** The short-run settings themselves; the benchmark gives them to its PGlite-alone floor, so that both start PGlite alike. */
export const SHORT_RUN_V8_FLAGS = '--wasm-tiering-budget=2000000000 --wasm-lazy-validation';

/**
 * The server on the embedded database optimises what stays hot, but not what is hot only while it starts: a
 * budget 100 times V8's. On a new folder, opening the database, the 12 migrations and the demo data took
 * 2.8–3.5 s instead of 4.5–4.9 s (3 runs of each in turns, on a machine where they were slow); under load the
 * hot paths still tier up (30 sorts of 1,500 options after 1,500 creates: 60–65 ms a sort, as with V8's
 * budget, and 67–75 ms with the short-run budget). Harmless on PostgreSQL, where the server runs no
 * WebAssembly.
 */
export function deferWebAssemblyTierUp(): void {
  v8.setFlagsFromString(SERVER_V8_FLAGS);
}

export const SERVER_V8_FLAGS = '--wasm-tiering-budget=200000000 --wasm-lazy-validation';
