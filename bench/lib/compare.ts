// `npm run bench -- --compare <entry>`: two builds of the server in one run. Every HTTP scenario becomes a
// variant scenario (runVariantScenario in run.ts): the same request on a second server started from <entry>,
// in turns with the main server (BENCH_SERVER_ENTRY, or the bundle of this tree), and its one target is that
// the other build keeps at least COMPARE_MIN_RATIO of the main server's rate. A latency scenario's calls
// alternate between the two servers the same way (runLatencyOnTwoBuilds in run.ts; rate = 1 / median).
// Measuring two builds in separate runs compares two states of a shared machine; in turns, both meet the same drift.
import type { Scenario, Target } from './types.ts';

/** Issue 25: a change keeps E1 and U4 within 10 % of what they were (issue 40: option create, rename and move too). */
export const COMPARE_MIN_RATIO = 0.9;

export const COMPARE_VARIANT = 'compare';

/**
 * The scenarios of a `--compare` run, each measured on `entry` against the main server, with
 * `≥ COMPARE_MIN_RATIO × the main server` as its target (its own targets are about one build against Express,
 * nginx or a fixed time, which this run does not measure): the HTTP ones (also per server CPU second) and the
 * latency ones (without a partner: the other build is the partner). Variant scenarios and those with `runOn` are left out.
 */
export function compareScenarios(
  scenarios: readonly Scenario[],
  entry: string,
  /** `--compare-env`: set on the compared server only. */
  env: Record<string, string> = {},
): Scenario[] {
  // Both the rate and the cost: on a busy machine the rate in turns still scatters; requests per server CPU
  // second scatter much less (bench/README.md).
  const targets: Target[] = [{ minRatioToMain: COMPARE_MIN_RATIO }, { minCpuRatioToMain: COMPARE_MIN_RATIO }];
  return scenarios.flatMap((s): Scenario[] => {
    const variant = { name: COMPARE_VARIANT, env: { ...env }, entry };
    if (s.kind === 'latency') {
      const { inTurnsWith: _partner, ...own } = s;
      return [{ ...own, targets: [{ minRatioToMain: COMPARE_MIN_RATIO }], variant }];
    }
    // A scenario on a server of its own settings (`runOn`, e.g. issue 30's wrong logins) is about one build.
    if (s.variant || s.runOn) return [];
    const { pairWithNginx: _nginx, pairedRequest: _paired, ...rest } = s;
    return [{ ...rest, targets, variant }];
  });
}
