// Foundation scenarios: the cost of authenticating a request (the directory is on
// every API call's path), by personal access token and by password.
import { basic, bearer, expectStatus } from '../lib/context.ts';
import type { BenchContext, Scenario } from '../lib/types.ts';

const RSS_TARGET = { maxRssMb: 300 };

export async function benchToken(ctx: BenchContext): Promise<string> {
  const cached = ctx.state.benchToken;
  if (typeof cached === 'string') return cached;
  const res = await ctx.http('POST', '/rest/pat/latest/tokens', {
    auth: ctx.adminAuth,
    body: { name: 'bench' },
  });
  expectStatus(res, 201, 'creating the bench token');
  const rawToken = (res.body as { rawToken?: unknown } | null)?.rawToken;
  if (typeof rawToken !== 'string')
    throw new Error(`token response has no rawToken: ${JSON.stringify(res.body)}`);
  ctx.state.benchToken = rawToken;
  return rawToken;
}

export const scenarios: Scenario[] = [
  {
    name: 'bearer-myself',
    description: 'GET /rest/api/2/myself with a personal access token',
    async setup(ctx) {
      await benchToken(ctx);
    },
    request: (ctx) => ({
      method: 'GET',
      path: '/rest/api/2/myself',
      headers: { authorization: bearer(String(ctx.state.benchToken)), accept: 'application/json' },
    }),
    targets: [{ minRatioToExpress: 0.6 }, RSS_TARGET],
  },
  {
    name: 'basic-myself',
    description: 'GET /rest/api/2/myself with Basic admin:<password> (a password hash check per request)',
    request: (ctx) => ({
      method: 'GET',
      path: '/rest/api/2/myself',
      headers: { authorization: ctx.adminAuth, accept: 'application/json' },
    }),
    targets: [{ ratioTo: 'bearer-myself', min: 0.9 }, RSS_TARGET],
  },
  {
    name: 'basic-wrong-password',
    description:
      'GET /rest/api/2/myself with a wrong password for an existing non-admin user: every request must be refused',
    async setup(ctx) {
      // A separate user, so that even a lock-out bug could never lock the admin the other scenarios use.
      const name = `bench-wrong-${Date.now()}`;
      const password = 'bench-right-pw';
      const created = await ctx.http('POST', '/rest/api/2/user', {
        auth: ctx.adminAuth,
        body: { name, password },
      });
      if (created.status !== 201 && created.status !== 200)
        expectStatus(created, 201, `creating user ${name}`);
      // Prove the user exists and the right password works, so the 401s below are about the password.
      const ok = await ctx.http('GET', '/rest/api/2/myself', { auth: basic(name, password) });
      expectStatus(ok, 200, `${name} with the right password`);
      ctx.state.wrongPasswordUser = name;
    },
    request: (ctx) => ({
      method: 'GET',
      path: '/rest/api/2/myself',
      headers: {
        authorization: basic(String(ctx.state.wrongPasswordUser), 'definitely-not-the-password'),
        accept: 'application/json',
      },
    }),
    expectStatus: 401,
    // No ratio target: the rate is reported for information (a refused login costs a hash too).
    targets: [RSS_TARGET],
  },
];
