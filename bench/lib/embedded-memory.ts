// The embedded default's memory, measured in every PostgreSQL run (issue 14: the server of `npm start` stays
// under 300 MB RSS idle and under load, from the first start on). A fresh data folder with the demo data,
// as `npm install && npm start` makes it: first start (the build's migrated template copied, demo data), idle, load,
// restart, idle.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnNode, waitForHttp, type RunningChild } from './child.ts';
import { runLoad, toLoadConfig } from './load.ts';
import { readRssMb, sampleRss } from './rss.ts';
import { SERVER_MALLOC_ARENA_MAX, SERVER_MALLOC_MMAP_THRESHOLD, SERVER_UV_THREADPOOL_SIZE } from './server-process.ts';

export const EMBEDDED_RSS_LIMIT_MB = 300;
/**
 * Issue 42 (issue 14 asked for 10 s): the first start answers within 3 s on a 2-core machine. The figure of record
 * is bench/start-timing.ts, which measures it in turns with PGlite's own start; this check is the same target
 * seen once per bench run, at whatever load the run has.
 */
export const FIRST_START_LIMIT_SEC = 3;

export interface EmbeddedMemory {
  firstStartSec: number;
  /** Peak RSS of the server process from spawn to the first answer of /status. */
  firstStartPeakMb: number | null;
  firstIdleMb: number | null;
  loadPeakMb: number | null;
  loadRequestsPerSec: number | null;
  restartSec: number;
  restartIdleMb: number | null;
}

const IDLE_WAIT_MS = 5_000;
// The demo page's first block (README, Code-block downloads), as alice: a database read on every request.
const DEMO_DOWNLOAD =
  '/rest/advancedcodeblocks/1/download_code/plain_text?key=dGVzdHN5c3RlbSAx&macroId=5f3c2a4e-1d2b-4c6a-9e8f-000000001001&contentId=1001';

async function start(repoRoot: string, entry: string, dataDir: string): Promise<{ server: RunningChild; seconds: number; peakMb: number | null }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
    UV_THREADPOOL_SIZE: SERVER_UV_THREADPOOL_SIZE,
    MALLOC_MMAP_THRESHOLD_: SERVER_MALLOC_MMAP_THRESHOLD,
  };
  const began = Date.now();
  const { child, running } = spawnNode('embedded', [entry, 'serve'], { cwd: repoRoot, env, port });
  const rss = sampleRss(running.pid);
  await waitForHttp(child, running, '/status', 300_000);
  return { server: running, seconds: (Date.now() - began) / 1000, peakMb: rss.stop() };
}

export async function measureEmbeddedDefault(repoRoot: string, benchDir: string, entry: string, loadSec: number): Promise<EmbeddedMemory> {
  const dataDir = mkdtempSync(join(tmpdir(), 'addon-pair-bench-embedded-'));
  try {
    const first = await start(repoRoot, entry, dataDir);
    let loadPeakMb: number | null;
    let loadRequestsPerSec: number | null;
    let firstIdleMb: number | null;
    try {
      await new Promise((r) => setTimeout(r, IDLE_WAIT_MS));
      firstIdleMb = readRssMb(first.server.pid);
      const rss = sampleRss(first.server.pid);
      const auth = `Basic ${Buffer.from('alice:alice').toString('base64')}`;
      const result = await runLoad(
        benchDir,
        toLoadConfig(first.server.baseUrl, { method: 'GET', path: DEMO_DOWNLOAD, headers: { authorization: auth } }, {
          connections: 32,
          durationSec: loadSec,
          warmupSec: 2,
          serverPid: first.server.pid,
        }),
      );
      loadPeakMb = rss.stop();
      loadRequestsPerSec = result.requestsPerSec;
    } finally {
      await first.server.stop();
    }
    const again = await start(repoRoot, entry, dataDir);
    await new Promise((r) => setTimeout(r, IDLE_WAIT_MS));
    const restartIdleMb = readRssMb(again.server.pid);
    await again.server.stop();
    return {
      firstStartSec: first.seconds,
      firstStartPeakMb: first.peakMb,
      firstIdleMb,
      loadPeakMb,
      loadRequestsPerSec,
      restartSec: again.seconds,
      restartIdleMb,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mb = (v: number | null) => (v === null ? '?' : v.toFixed(0));

export function renderEmbeddedMemory(m: EmbeddedMemory): string[] {
  const worst = Math.max(m.firstStartPeakMb ?? Infinity, m.firstIdleMb ?? Infinity, m.loadPeakMb ?? Infinity, m.restartIdleMb ?? Infinity);
  return [
    `embedded default (fresh DATA_DIR, demo data): first start ${m.firstStartSec.toFixed(1)} s (peak ${mb(m.firstStartPeakMb)} MB), ` +
      `idle ${mb(m.firstIdleMb)} MB, under load ${mb(m.loadPeakMb)} MB peak (${m.loadRequestsPerSec?.toFixed(0) ?? '?'} req/s E1 as alice), ` +
      `restart ${m.restartSec.toFixed(1)} s, idle ${mb(m.restartIdleMb)} MB`,
    `${worst < EMBEDDED_RSS_LIMIT_MB ? 'PASS' : 'FAIL'} embedded-default: RSS < ${EMBEDDED_RSS_LIMIT_MB} MB at every point (worst ${mb(worst)} MB)`,
    // The bench starts the built server itself; `npm start` adds npm and, when dist/ is stale, the build (about 1 s).
    `${m.firstStartSec < FIRST_START_LIMIT_SEC ? 'PASS' : 'FAIL'} embedded-default: first start < ${FIRST_START_LIMIT_SEC} s ` +
      `(got ${m.firstStartSec.toFixed(1)} s for the built server on a new folder; npm start adds npm and a stale build's second)`,
  ];
}
