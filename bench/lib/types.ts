// Shared types for the benchmark harness. Scenario files import only from here
// (and from ./context.ts for helpers), so adding a scenario never touches run.ts.

/** What one HTTP request of an `http` scenario looks like. Sent identically on every request. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as-is; anything else is JSON-encoded with `content-type: application/json`. */
  body?: unknown;
}

export interface HttpOptions {
  /** Full `Authorization` header value, e.g. `ctx.adminAuth` or `bearer(token)`. */
  auth?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response says so, otherwise the text. */
  body: unknown;
}

export interface BenchContext {
  baseUrl: string;
  /** `Basic …` header value for the bootstrap admin. */
  adminAuth: string;
  adminUsername: string;
  adminPassword: string;
  /** Small fetch wrapper for setups; throws nothing on non-2xx, check `status` yourself. */
  http(method: string, path: string, options?: HttpOptions): Promise<HttpResponse>;
  /**
   * The server's PostgreSQL database (unset on `--pglite`), for setups that seed large data sets with a
   * few batched SQL statements instead of thousands of HTTP calls.
   */
  databaseUrl?: string;
  /** Shared across all scenarios of one run, so a setup can leave a token for a later request. */
  state: Record<string, unknown>;
}

/**
 * Targets a scenario declares. All are checked after the run; a failed target is
 * reported as FAIL but does not change the exit code (the bench is a report, not a gate).
 */
export type Target =
  | { minRatioToExpress: number }
  | { minRatioToNodeHttp: number }
  | { ratioTo: string; min: number }
  | { minRps: number }
  | { maxP50Ms: number }
  | { maxP99Ms: number }
  | { maxMedianMs: number }
  | { maxRssMb: number }
  /** A `variant` scenario: req/s ≥ min × the same request on the main server, measured in turns with it. */
  | { minRatioToMain: number }
  /** The same per server CPU second: requests per CPU second ≥ min × the main server's, in the same rounds. */
  | { minCpuRatioToMain: number }
  /** A `pairWithNginx` scenario: req/s ≥ min × nginx + auth_basic (apr1) serving the same bytes, in the same rounds. */
  | { minRatioToNginx: number }
  /** A `pairedRequest` scenario: req/s ≥ min × that request on the same server, in the same rounds. */
  | { minRatioToPaired: number }
  /**
   * Latency scenarios doing the same work two ways (one batch against single requests, issue 27): the other
   * scenario's median ≥ min × this one's, in the same run.
   */
  | { fasterThan: string; min: number };

interface ScenarioBase {
  name: string;
  description?: string;
  /** Runs once before the load; may create data and put it on `ctx.state`. */
  setup?(ctx: BenchContext): Promise<void>;
  targets: Target[];
  /**
   * Why the scenario runs on PostgreSQL only (its setup seeds with SQL, say): on `--pglite` it is not run and
   * its row says SKIP with this reason, instead of an ERROR that would fail the run.
   */
  postgresOnly?: string;
}

/** Throughput scenario: autocannon hammers one request from a separate process. */
export interface HttpScenario extends ScenarioBase {
  kind?: 'http';
  /** A function is evaluated once, after setup, so it can read `ctx.state`. */
  request: RequestSpec | ((ctx: BenchContext) => RequestSpec);
  /**
   * When set, every response must carry exactly this status (checked as an implicit target).
   * When unset, every response must be 2xx.
   */
  expectStatus?: number;
  /**
   * Measure this request on a second server started with extra environment variables (e.g. metrics on),
   * in turns with the same request on the main server instead of the Express baseline. Its setup runs
   * against the second server too (which on `--pglite` has a database of its own).
   */
  variant?: ServerVariant;
  /**
   * Also measure, in the same rounds, the servers of the bytes this request downloads (bench/lib/static-sides.ts):
   * nginx with `auth_basic` and an apr1 password, with a `{SHA}` password, without auth
   * (bench/baselines/nginx.ts), and bare node:http (bench/baselines/node-http-body.ts). The ratio to the apr1
   * nginx is `ratioToNginx` (the `minRatioToNginx` target); every side's ratio is in `staticSides`. Without
   * nginx installed its three sides are skipped and the `minRatioToNginx` targets are SKIP.
   */
  pairWithNginx?: boolean;
  /**
   * Also measure this other request on the same server in the same rounds, as a third side (A B C, C B A, …):
   * for a target that compares two requests of one server (a 304 against the 200 it replaces), so that both
   * meet the same process state and the same drift. Its ratio is `ratioToPaired`. Not with `pairWithNginx`.
   */
  pairedRequest?: { label: string; request: (ctx: BenchContext) => RequestSpec };
  /**
   * Wrong logins sent beside this scenario's own load (its warm-up and rounds), not beside the other sides: with
   * `pairedRequest` naming the same request, the ratio to it is what the wrong logins cost (bench/lib/alongside.ts).
   */
  alongside?: { perSecond: number; localAddress: string };
  /** Run on a second server started with these settings instead of the main one (Express and the sides as usual). */
  runOn?: ServerVariant;
}

/** A second server of the run: the main server's settings plus `env`. */
export interface ServerVariant {
  name: string;
  env: Record<string, string>;
  /** Another server entry than the main server's (`--compare`); default the same. */
  entry?: string;
}

/**
 * Latency scenario: `call` runs `iterations` times one after another in the
 * orchestrator process, and the median/p99 of the per-call wall time is reported.
 * Meant for "creating one option takes a median under 15 ms"-style targets.
 */
export interface LatencyScenario extends ScenarioBase {
  kind: 'latency';
  /** Default 200. */
  iterations?: number;
  /** Untimed calls before measuring. Default 10. */
  warmupIterations?: number;
  call(ctx: BenchContext, iteration: number): Promise<void>;
  /**
   * Another latency scenario run in turns with this one, call for call (A B, B A, …, warm-ups included), so that
   * a machine that slows down for a while slows both: each round's ratio is its time over this one's, and their
   * median is `ratioToPaired` (a `minRatioToPaired` target). The other scenario is also run on its own, by name.
   */
  inTurnsWith?: LatencyScenario;
  /**
   * `--compare` (bench/lib/compare.ts): the calls alternate between the main server and this one (A B, B A, …),
   * each server with its own setup; the row is this server's, `ratioToMain` the ratio of rates (1 / median).
   */
  variant?: ServerVariant;
}

export type Scenario = HttpScenario | LatencyScenario;

/** What the load worker prints (one JSON line on stdout). */
export interface LoadResult {
  requestsPerSec: number;
  totalRequests: number;
  durationSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** How long the server needed after the warm-up to finish its backlog (-1: gave up after 60 s). */
  settleAfterWarmupMs: number;
  /**
   * The CPU time the server process used while this was measured (utime + stime of all its threads, from
   * /proc; paired rounds only). Requests per CPU second is what a request costs the server, which a busy
   * machine moves much less than requests per second (bench/README.md, "On a busy machine").
   */
  serverCpuSec?: number;
}

/**
 * A paired run for the load worker: after both warm-ups, `rounds` turns of `roundSec` seconds each, the
 * scenario and the baseline alternating (A B, B A, …; see bench/lib/paired.ts).
 */
export interface PairedLoadConfig {
  scenario: LoadConfig;
  baseline: LoadConfig;
  /** Further sides in the same rounds, after the baseline (e.g. nginx): order A B C, C B A, … */
  others?: LoadConfig[];
  rounds: number;
  roundSec: number;
}

/** One side of a paired run: each round, and all rounds together (percentiles over every request). */
export interface PairedSide {
  rounds: LoadResult[];
  combined: LoadResult;
}

export interface PairedLoadResult {
  scenario: PairedSide;
  baseline: PairedSide;
  /** One per `others` side of the config, in its order. */
  others: PairedSide[];
}

/** Wrong logins at `perSecond` to `url` + `path` from `localAddress`, beside a side's load (bench/lib/alongside.ts). */
export interface AlongsideLoad {
  url: string;
  path: string;
  perSecond: number;
  localAddress: string;
}

/** Options handed to the load worker (JSON in argv[2]). */
export interface LoadConfig {
  url: string;
  method: RequestSpec['method'];
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
  warmupSec: number;
  /** The server's pid, to wait for its warm-up backlog to drain before measuring. */
  serverPid?: number;
  /** Wrong logins sent while this load runs (warm-up and rounds), and only then. */
  alongside?: AlongsideLoad;
}

export type Verdict = 'PASS' | 'FAIL' | 'SKIP';

export interface TargetCheck {
  label: string;
  verdict: Verdict;
  detail: string;
}

export interface ScenarioResult {
  name: string;
  kind: 'baseline' | 'http' | 'latency';
  /** Not run on this storage, and why (a `postgresOnly` scenario on `--pglite`). */
  skipped?: string;
  requestsPerSec: number | null;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors + timeouts + responses outside the expected status. */
  errorsAndNon2xx: number;
  totalRequests: number;
  peakRssMb: number | null;
  ratioToNodeHttp: number | null;
  ratioToExpress: number | null;
  /**
   * The Express baseline measured in turns with this scenario (HTTP scenarios only, see measurePaired in
   * run.ts). On a shared VM the machine's speed drifts during a run; the ratio to a paired measurement is
   * the fair one.
   */
  pairedExpressRps?: number | null;
  /** Per round: this scenario's rate over the Express rate of the same round (of the main server's, for a variant). */
  roundRatios?: number[];
  /** Variant scenarios: the median of roundRatios, this server's rate over the main server's. */
  ratioToMain?: number | null;
  /** Variant scenarios: per round, this server's requests per CPU second over the main server's, and their median. */
  cpuRoundRatios?: number[];
  cpuRatioToMain?: number | null;
  /**
   * `pairWithNginx` scenarios: every server of the same bytes (STATIC_SIDES, in that order), skipped ones
   * included with their reason.
   */
  staticSides?: StaticSideResult[];
  /** `pairWithNginx` scenarios: the apr1 nginx's rate over its rounds, each round's ratio to it, and their median. */
  pairedNginxRps?: number | null;
  nginxRoundRatios?: number[];
  ratioToNginx?: number | null;
  /** Why nginx was not measured (not installed: the install line). */
  nginxSkipped?: string;
  /** `pairedRequest` scenarios: that request's rate, each round's ratio to it, and their median. */
  pairedLabel?: string;
  pairedRps?: number | null;
  pairedRoundRatios?: number[];
  ratioToPaired?: number | null;
  /** Latency scenarios under `--compare`: each build's median and p90, from the same alternating calls. */
  builds?: { main: { p50Ms: number; p90Ms: number }; compared: { p50Ms: number; p90Ms: number } };
  checks: TargetCheck[];
  raw?: LoadResult;
  error?: string;
}

/** One server of the same bytes in a `pairWithNginx` scenario's rounds (bench/lib/static-sides.ts). */
export interface StaticSideResult {
  id: string;
  label: string;
  /** Its rate over all its rounds; null when skipped. */
  requestsPerSec: number | null;
  /** Per round: the scenario's rate over this side's. */
  roundRatios: number[];
  /** The median of roundRatios. */
  ratio: number | null;
  /** The median over the rounds of the scenario's requests per server CPU second over this side's (cpuRoundRatios). */
  cpuRatio?: number | null;
  /** Socket errors, time-outs and responses outside 2xx of this side. */
  failed: number;
  totalRequests: number;
  /** Why it was not measured (nginx not installed: the install line). */
  skipped?: string;
}

/**
 * Several targets loaded at once by one load worker (the multi-process scenario, bench/lib/cluster.ts): a
 * warm-up of `warmupSec`, then a line `{"started":true}` on stdout, then `durationSec` measured seconds.
 */
export interface MultiLoadConfig {
  multi: LoadConfig[];
  warmupSec: number;
  durationSec: number;
}

export interface MultiLoadResult {
  targets: LoadResult[];
}
