import { DEFAULT_COST, type HashCost } from './auth/password-hasher.ts';

/**
 * Knobs for the project's own process tests and benchmarks, kept OUT of the configuration (config.ts,
 * docs/configuration.md, .env.example): nobody runs a server with them. They exist because those tests and
 * benchmarks run the real server as a child process, which cannot be handed a hook the way an in-process test
 * hands one to createServices (its `knobs` option). The serve path reads them here, once, from the environment
 * (server.ts); nothing else reads these variables. test/README.md and bench/README.md describe them.
 */
export interface TestKnobs {
  /** A claimed job run waits this long before its work starts, so a test can see it RUNNING (0: none). */
  readonly jobHoldMs: number;
  /** false: the field editor's event log is not written, so a benchmark can measure what writing it costs. */
  readonly eventLogWrites: boolean;
  /**
   * The scrypt cost of the passwords the server hashes (the first administrator, the demo users, users and
   * passwords set over REST, and the dummy check of an unknown name): DEFAULT_COST, or TEST_HASH_COST for a
   * process test whose subject is not what a hash costs. A stored hash is always checked at its own cost.
   */
  readonly hashCost: HashCost;
}

/**
 * The cheap scrypt cost of the tests (the in-process tests' hasher, and `ADDON_PAIR_TEST_CHEAP_HASHES=1`): the same
 * code path, about 3 ms a hash where DEFAULT_COST takes a fifth of a second of a core.
 */
export const TEST_HASH_COST: HashCost = Object.freeze({ N: 1024, r: 8, p: 1 });

/** What a server runs with: no knob turned. */
export const NO_TEST_KNOBS: TestKnobs = Object.freeze({ jobHoldMs: 0, eventLogWrites: true, hashCost: DEFAULT_COST });

/**
 * `ADDON_PAIR_TEST_JOB_HOLD_MS` (0 to 3600000), `ADDON_PAIR_BENCH_NO_EVENT_LOG=1` and `ADDON_PAIR_TEST_CHEAP_HASHES=1`;
 * a bad value is refused by name.
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
  if (cheap !== undefined && cheap !== '0' && cheap !== '1') throw new Error(`ADDON_PAIR_TEST_CHEAP_HASHES must be 0 or 1, not "${cheap}"`);
  return Object.freeze({ jobHoldMs, eventLogWrites: noLog !== '1', hashCost: cheap === '1' ? TEST_HASH_COST : DEFAULT_COST });
}
