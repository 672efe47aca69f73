// The servers of the same bytes: for a `pairWithNginx` scenario (E1), the body it downloads is served by nginx
// (apr1, {SHA}, no auth) and by bare node:http, and each of them is a further side of the scenario's rounds
// (measurePaired in run.ts). One password scheme alone would tell little: apr1's 1,000 MD5 rounds dominate
// nginx's cost, {SHA} and no auth show what serving the bytes costs, and node:http what Node itself costs.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NGINX_BODY_PATH, nginxMissing, startNginx, type NginxAuth } from '../baselines/nginx.ts';
import { startBaseline } from './baselines.ts';
import type { RunningChild } from './child.ts';
import { cpuRoundRatios, finiteMedian, median, roundRatios } from './paired.ts';
import type { BenchContext, LoadResult, PairedSide, RequestSpec, StaticSideResult } from './types.ts';

export interface StaticSideSpec {
  id: string;
  /** As the report's rows and the README name it. */
  label: string;
  /** An nginx variant, or (absent) bare node:http (baselines/node-http-body.ts). */
  nginx?: NginxAuth;
}

/** In this order in every round after the scenario and Express (A B C D E F, F E D C B A, …). */
export const STATIC_SIDES: readonly StaticSideSpec[] = [
  { id: 'nginx-apr1', label: 'nginx + auth_basic, apr1', nginx: 'apr1' },
  { id: 'nginx-sha', label: 'nginx + auth_basic, {SHA}', nginx: 'sha' },
  { id: 'nginx-none', label: 'nginx, no auth', nginx: 'none' },
  { id: 'node-http-body', label: 'node:http, same bytes' },
];

/** The side issue 15's `minRatioToNginx` target is measured against (and the main table's nginx columns show). */
export const TARGET_NGINX_SIDE = 'nginx-apr1';

/** A side that is up for this request, or why it is not (nginx not installed). */
export type StaticSide = StaticSideSpec & ({ server: RunningChild; request: RequestSpec } | { skipped: string });

export interface StaticServers {
  /** Every STATIC_SIDES entry for the bytes this request downloads from the app server, in that order. */
  forRequest(ctx: BenchContext, request: RequestSpec): Promise<StaticSide[]>;
  stopAll(): Promise<void>;
}

/** bare node:http serving `body` from a temp file; `stop()` also removes the file. */
async function startNodeBody(benchDir: string, body: Uint8Array, contentType: string): Promise<RunningChild> {
  const dir = await mkdtemp(join(tmpdir(), 'addon-pair-bench-body-'));
  try {
    const file = join(dir, 'body');
    await writeFile(file, body);
    const server = await startBaseline(benchDir, 'node-http-body.ts', 'baseline: node:http same bytes', {
      BENCH_BODY_FILE: file,
      BENCH_CONTENT_TYPE: contentType,
    });
    const stop = server.stop.bind(server);
    server.stop = async (graceMs?: number) => {
      await stop(graceMs);
      await rm(dir, { recursive: true, force: true });
    };
    return server;
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The servers of the run, one per side and distinct body, started on first use and kept for later scenarios
 * (the Basic and Bearer E1 download the same bytes). `onStarted` registers each one's stop for Ctrl-C.
 */
export function staticServers(benchDir: string, onStarted: (stop: () => Promise<void>) => void): StaticServers {
  const started = new Map<string, Promise<RunningChild>>();
  let warned = false;
  return {
    async forRequest(ctx, request) {
      // The bytes the load will download: autocannon sends no Accept-Encoding, nor does this request.
      const res = await fetch(ctx.baseUrl + request.path, { method: request.method, headers: { ...request.headers, 'accept-encoding': 'identity' } });
      const body = new Uint8Array(await res.arrayBuffer());
      const contentType = res.headers.get('content-type') ?? 'application/octet-stream';
      const key = `${contentType}\n${createHash('sha256').update(body).digest('hex')}`;
      const missing = nginxMissing();
      if (missing && !warned) console.warn(`  ${missing}`);
      warned ||= missing !== null;
      // Every side gets the Basic scenarios' header, so every side reads a request of the same size; nginx
      // without auth and node:http ignore it.
      const sideRequest = (path: string): RequestSpec => ({ method: 'GET', path, headers: { authorization: ctx.adminAuth } });
      const sides: StaticSide[] = [];
      for (const spec of STATIC_SIDES) {
        if (spec.nginx && missing) {
          sides.push({ ...spec, skipped: missing });
          continue;
        }
        let running = started.get(`${spec.id}\n${key}`);
        if (!running) {
          console.log(`  starting ${spec.label} serving the same ${body.length} bytes (${contentType})`);
          const auth = spec.nginx;
          running = (auth ? startNginx(body, contentType, ctx.adminUsername, ctx.adminPassword, auth).then((n) => n.server) : startNodeBody(benchDir, body, contentType)).then((server) => {
            onStarted(() => server.stop());
            return server;
          });
          started.set(`${spec.id}\n${key}`, running);
        }
        const server = await running;
        sides.push({ ...spec, server, request: sideRequest(spec.nginx ? NGINX_BODY_PATH : '/') });
      }
      return sides;
    },
    async stopAll() {
      for (const running of started.values()) await (await running).stop();
    },
  };
}

/**
 * Every side's row of the report, in the order of `sides`: the measured ones from `others` (the load worker's
 * further sides, which are the measured sides in the same order), the skipped ones with their reason.
 */
export function staticSideResults(sides: readonly StaticSide[], scenarioRounds: readonly LoadResult[], others: readonly PairedSide[]): StaticSideResult[] {
  let next = 0;
  return sides.map((side) => {
    const ran = 'server' in side ? others[next++] : undefined;
    if (ran) return staticSideResult(side, scenarioRounds, ran);
    const skipped = 'skipped' in side ? side.skipped : 'not measured';
    return { id: side.id, label: side.label, requestsPerSec: null, roundRatios: [], ratio: null, failed: 0, totalRequests: 0, skipped };
  });
}

/**
 * One side's row of the report: its rate over its rounds, the scenario's ratio to it in each round, their
 * median, and how many of its requests failed or were not 2xx (nginx must have authenticated every request,
 * or its rate means nothing).
 */
export function staticSideResult(spec: StaticSideSpec, scenarioRounds: readonly LoadResult[], side: PairedSide): StaticSideResult {
  const ratios = roundRatios(scenarioRounds, side.rounds);
  return {
    id: spec.id,
    label: spec.label,
    requestsPerSec: side.combined.requestsPerSec,
    roundRatios: ratios,
    ratio: ratios.length > 0 ? median(ratios) : null,
    cpuRatio: finiteMedian(cpuRoundRatios(scenarioRounds, side.rounds)),
    failed: side.combined.errors + side.combined.non2xx,
    totalRequests: side.combined.totalRequests,
  };
}
