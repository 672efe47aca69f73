// Starts one baseline server (bare node:http or empty Express 5) in its own process,
// so it is measured under exactly the same conditions as the app server.
import { join } from 'node:path';
import { freePort, spawnNode, waitForHttp, type RunningChild } from './child.ts';

export const BASELINES = [
  { name: 'baseline: node:http', script: 'node-http.ts' },
  { name: 'baseline: express 5', script: 'express.ts' },
] as const;

export type BaselineName = (typeof BASELINES)[number]['name'];
export const NODE_HTTP_BASELINE: BaselineName = 'baseline: node:http';
export const EXPRESS_BASELINE: BaselineName = 'baseline: express 5';

export async function startBaseline(
  benchDir: string,
  script: string,
  name: string,
  /** More environment for the script (node-http-body.ts takes the file and content type it serves). */
  env: Record<string, string> = {},
): Promise<RunningChild> {
  const port = await freePort();
  const { child, running } = spawnNode(name.replace(/\W+/g, '-'), [join(benchDir, 'baselines', script)], {
    // The repo root, so `--import tsx` and `express` resolve from its node_modules.
    cwd: join(benchDir, '..'),
    env: { ...process.env, ...env, PORT: String(port) },
    port,
  });
  await waitForHttp(child, running, '/', 20_000);
  return running;
}
