// Turns a scenario's declared targets into PASS/FAIL/SKIP lines. Runs after all
// scenarios finished, because `ratioTo` targets compare against another scenario.
import type { ScenarioResult, Target, TargetCheck } from './types.ts';

const fmt = (n: number, digits = 2): string => n.toFixed(digits);

function check(label: string, ok: boolean | null, detail: string): TargetCheck {
  return { label, verdict: ok === null ? 'SKIP' : ok ? 'PASS' : 'FAIL', detail };
}

/**
 * One scenario's rate over another's. When both were measured in turns with the Express baseline, their
 * ratios to it are compared: the two ran minutes apart, and the machine's speed drifts in between.
 */
function ratio(result: ScenarioResult, other: ScenarioResult | undefined): number | null {
  if (!other?.requestsPerSec || result.requestsPerSec === null || other.error) return null;
  if (result.roundRatios?.length && other.roundRatios?.length && result.ratioToExpress && other.ratioToExpress) {
    return result.ratioToExpress / other.ratioToExpress;
  }
  return result.requestsPerSec / other.requestsPerSec;
}

function checkRatio(label: string, value: number | null, min: number, missing: string): TargetCheck {
  if (value === null) return check(label, null, missing);
  return check(label, value >= min, `${fmt(value)}×`);
}

export function evaluateTarget(
  target: Target,
  result: ScenarioResult,
  byName: ReadonlyMap<string, ScenarioResult>,
): TargetCheck {
  if ('minRatioToExpress' in target) {
    const { minRatioToExpress: min } = target;
    return checkRatio(`≥ ${min}× express 5 baseline`, result.ratioToExpress, min, 'no baseline result');
  }
  if ('minRatioToNodeHttp' in target) {
    const { minRatioToNodeHttp: min } = target;
    return checkRatio(`≥ ${min}× node:http baseline`, result.ratioToNodeHttp, min, 'no baseline result');
  }
  if ('ratioTo' in target) {
    const other = byName.get(target.ratioTo);
    const missing = other ? `${target.ratioTo} failed` : `${target.ratioTo} not run (--only?)`;
    return checkRatio(`≥ ${target.min}× ${target.ratioTo}`, ratio(result, other), target.min, missing);
  }
  if ('minRatioToMain' in target) {
    const { minRatioToMain: min } = target;
    return checkRatio(`≥ ${min}× the main server, in turns`, result.ratioToMain ?? null, min, 'not measured against the main server');
  }
  if ('minCpuRatioToMain' in target) {
    const { minCpuRatioToMain: min } = target;
    return checkRatio(`≥ ${min}× the main server per server CPU second, in turns`, result.cpuRatioToMain ?? null, min, 'no CPU figures (no /proc?)');
  }
  if ('minRatioToNginx' in target) {
    const { minRatioToNginx: min } = target;
    const missing = result.nginxSkipped ?? 'not measured against nginx';
    return checkRatio(`≥ ${min}× nginx + auth_basic (apr1), in turns`, result.ratioToNginx ?? null, min, missing);
  }
  if ('minRatioToPaired' in target) {
    const { minRatioToPaired: min } = target;
    return checkRatio(`≥ ${min}× ${result.pairedLabel ?? 'the paired request'}, in turns`, result.ratioToPaired ?? null, min, 'not measured in turns');
  }
  if ('fasterThan' in target) {
    const other = byName.get(target.fasterThan);
    const missing = other ? `${target.fasterThan} failed` : `${target.fasterThan} not run (--only?)`;
    const value = other && !other.error && result.p50Ms > 0 ? other.p50Ms / result.p50Ms : null;
    return checkRatio(`≥ ${target.min}× faster than ${target.fasterThan} (medians)`, value, target.min, missing);
  }
  if ('minRps' in target) {
    const rps = result.requestsPerSec;
    return check(
      `≥ ${target.minRps} req/s`,
      rps === null ? null : rps >= target.minRps,
      `${fmt(rps ?? 0, 0)} req/s`,
    );
  }
  if ('maxP50Ms' in target) {
    return check(`p50 ≤ ${target.maxP50Ms} ms`, result.p50Ms <= target.maxP50Ms, `${fmt(result.p50Ms)} ms`);
  }
  if ('maxMedianMs' in target) {
    return check(
      `median ≤ ${target.maxMedianMs} ms`,
      result.p50Ms <= target.maxMedianMs,
      `${fmt(result.p50Ms)} ms`,
    );
  }
  if ('maxP99Ms' in target) {
    return check(`p99 ≤ ${target.maxP99Ms} ms`, result.p99Ms <= target.maxP99Ms, `${fmt(result.p99Ms)} ms`);
  }
  const rss = result.peakRssMb;
  return check(
    `RSS < ${target.maxRssMb} MB`,
    rss === null ? null : rss < target.maxRssMb,
    rss === null ? 'not sampled' : `${fmt(rss, 0)} MB`,
  );
}

/**
 * The implicit target of every HTTP scenario: the server answered each request the
 * way the scenario expects. Without it, a scenario whose every request failed fast
 * would "pass" a throughput target.
 */
export function statusCheck(result: ScenarioResult, expectStatus: number | undefined): TargetCheck | null {
  const raw = result.raw;
  if (!raw) return null;
  const total = raw.totalRequests;
  if (expectStatus === undefined) {
    const bad = raw.errors + raw.non2xx;
    return check('every response 2xx', total > 0 && bad === 0, `${bad} of ${total} not 2xx or failed`);
  }
  const matching = raw.statusCodes[String(expectStatus)] ?? 0;
  return check(
    `every response ${expectStatus}`,
    total > 0 && raw.errors === 0 && matching === total,
    `${matching} of ${total} were ${expectStatus}, ${raw.errors} socket errors`,
  );
}
