/**
 * Knobs for the project's own process tests and benchmarks, kept OUT of the configuration (config.ts,
 * docs/configuration.md, .env.example): nobody runs a server with them. They exist because those tests and
 * benchmarks run the real server as a child process, which cannot be handed a hook the way an in-process test
 * hands one to createServices (its `knobs` option). The serve path reads them here, once, from the environment
 * (server.ts); nothing else reads these variables. test/README.md and bench/README.md describe them.
 */
import type { HashCost } from './auth/password-hasher.ts';

/** The scrypt cost of the tests' password hashes: the same code path, milliseconds instead of a quarter second. */
export const CHEAP_HASH_COST: HashCost = Object.freeze({ N: 1024, r: 8, p: 1 });

export interface TestKnobs {
  /** A claimed job run waits this long before its work starts, so a test can see it RUNNING (0: none). */
  readonly jobHoldMs: number;
  /** false: the field editor's event log is not written, so a benchmark can measure what writing it costs. */
  readonly eventLogWrites: boolean;
  /** The cost of the passwords the server hashes (and of its checks for unknown names); undefined: the real one. */
  readonly hashCost?: HashCost;
}

/** What a server runs with: no knob turned. */
export const NO_TEST_KNOBS: TestKnobs = Object.freeze({ jobHoldMs: 0, eventLogWrites: true });

/**
 * `ADDON_PAIR_TEST_JOB_HOLD_MS` (0 to 3600000), `ADDON_PAIR_BENCH_NO_EVENT_LOG=1` and
 * `ADDON_PAIR_TEST_CHEAP_HASHES=1` (CHEAP_HASH_COST, for tests whose subject is not the hash); a bad value is
 * refused by name.
 */
export function testKnobsFrom(env: NodeJS.ProcessEnv): TestKnobs {
  const hold = env.ADDON_PAIR_TEST_JOB_HOLD_MS;
  const noLog = env.ADDON_PAIR_BENCH_NO_EVENT_LOG;
  const cheap = env.ADDON_PAIR_TEST_CHEAP_HASHES;
  if (hold === undefined && noLog === undefined && cheap === undefined) return NO_TEST_KNOBS;
  const jobHoldMs = hold === undefined ? 0 : Number(hold);
  if (!Number.isInteger(jobHoldMs) || jobHoldMs < 0 || jobHoldMs > 3_600_000 || (hold !== undefined && hold.trim() === ''))
    throw new Error(`ADDON_PAIR_TEST_JOB_HOLD_MS must be a whole number of milliseconds from 0 to 3600000, not "${hold}"`);
  if (noLog !== undefined && noLog !== '0' && noLog !== '1')
    throw new Error(`ADDON_PAIR_BENCH_NO_EVENT_LOG must be 0 or 1, not "${noLog}"`);
  if (cheap !== undefined && cheap !== '0' && cheap !== '1')
    throw new Error(`ADDON_PAIR_TEST_CHEAP_HASHES must be 0 or 1, not "${cheap}"`);
  return Object.freeze({ jobHoldMs, eventLogWrites: noLog !== '1', ...(cheap === '1' ? { hashCost: CHEAP_HASH_COST } : {}) });
}
