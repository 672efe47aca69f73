// The cost of the Prometheus metrics on the two hottest paths: E1 and /myself on a second server started
// with METRICS_TOKEN (metrics on), measured in turns with the same requests on the main server (metrics off).
import { bearer } from '../lib/context.ts';
import type { Scenario, ServerVariant } from '../lib/types.ts';
import { benchToken } from './directory.ts';
import { e1Path, ensureData } from './codeblocks.ts';

const METRICS_ON: ServerVariant = { name: 'metrics on', env: { METRICS_TOKEN: 'bench-metrics-token-0123456789' } };

export const scenarios: Scenario[] = [
  {
    name: 'metrics-on-bearer-myself',
    description: 'GET /rest/api/2/myself with a token, metrics on, in turns with the main server (metrics off)',
    variant: METRICS_ON,
    async setup(ctx) {
      await benchToken(ctx);
    },
    request: (ctx) => ({ method: 'GET', path: '/rest/api/2/myself', headers: { authorization: bearer(String(ctx.state.benchToken)), accept: 'application/json' } }),
    targets: [{ minRatioToMain: 0.95 }],
  },
  {
    name: 'metrics-on-codeblock-e1-bearer',
    description: 'E1 with a token, metrics on, in turns with the main server (metrics off)',
    variant: METRICS_ON,
    async setup(ctx) {
      await ensureData(ctx);
    },
    request: (ctx) => {
      const state = ctx.state.codeblocks as Parameters<typeof e1Path>[0];
      return { method: 'GET', path: e1Path(state), headers: { authorization: bearer(state.token) } };
    },
    expectStatus: 200,
    targets: [{ minRatioToMain: 0.95 }],
  },
];
