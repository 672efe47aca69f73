// Issue 30's targets for the limits, each measured in turns within one run:
// - the rate limiter costs at most 5 % of E1's throughput with limits that are never reached: E1 on a second
//   server with the limiter on, in turns with the main server (RATE_LIMITS=off there, bench/lib/server-process.ts);
// - E1 with a cached Basic credential and with a token keep at least 0.8× their throughput while wrong logins
//   arrive (one a second from a stranger; a hundred a second from one address): on a server with the login
//   protections at their defaults (per-address failed-login limit, lockout, bounded hash pool), the same E1 with
//   the wrong logins beside it (`alongside`) in turns with E1 without them (`pairedRequest`) and with Express.
import { bearer } from '../lib/context.ts';
import type { BenchContext, RequestSpec, Scenario, ServerVariant } from '../lib/types.ts';
import { e1Path, ensureData, type CodeblocksState } from './codeblocks.ts';

const NEVER = '1000000:1000000';

const LIMITER_ON: ServerVariant = {
  name: 'rate-limits-on',
  env: { RATE_LIMITS: 'on', RATE_LIMIT_DOWNLOADS: NEVER, RATE_LIMIT_READS: NEVER, RATE_LIMIT_WRITES: NEVER, RATE_LIMIT_LOGINS: NEVER, RATE_LIMIT_PER_ADDRESS: NEVER },
};

/**
 * The login protections as deployed (their defaults), the rate limits on but out of the load's way: the bench's
 * one credential asks for more downloads a second than the defaults give a fleet.
 */
const LOGIN_DEFAULTS: ServerVariant = {
  name: 'login-defaults',
  env: { ...LIMITER_ON.env, RATE_LIMIT_LOGINS: '5:20', LOGIN_FAILURES_PER_ADDRESS: '30:10', MAX_AUTH_ATTEMPTS: '3' },
};

const state = (ctx: BenchContext) => ctx.state.codeblocks as CodeblocksState;
const e1Basic = (ctx: BenchContext): RequestSpec => ({ method: 'GET', path: e1Path(state(ctx)), headers: { authorization: ctx.adminAuth } });
const e1Bearer = (ctx: BenchContext): RequestSpec => ({ method: 'GET', path: e1Path(state(ctx)), headers: { authorization: bearer(state(ctx).token) } });

function limiterCost(name: string, request: (ctx: BenchContext) => RequestSpec): Scenario {
  return {
    name,
    description: 'E1 with the rate limiter on (limits never reached), in turns with the main server (RATE_LIMITS=off)',
    variant: LIMITER_ON,
    async setup(ctx) {
      await ensureData(ctx);
    },
    request,
    expectStatus: 200,
    targets: [{ minRatioToMain: 0.95 }],
  };
}

/** Each attack from an address of its own: the per-address limit of one must not carry over to the next. */
function underWrongLogins(name: string, request: (ctx: BenchContext) => RequestSpec, perSecond: number, localAddress: string): Scenario {
  return {
    name,
    description: `E1 while ${perSecond === 1 ? 'a stranger sends one wrong login a second' : `${perSecond} wrong logins a second arrive from one address`} (${localAddress}), in turns with E1 without them`,
    runOn: LOGIN_DEFAULTS,
    async setup(ctx) {
      await ensureData(ctx);
    },
    request,
    alongside: { perSecond, localAddress },
    pairedRequest: { label: 'E1 without the wrong logins', request },
    expectStatus: 200,
    targets: [{ minRatioToPaired: 0.8 }],
  };
}

export const scenarios: Scenario[] = [
  limiterCost('ratelimit-on-codeblock-e1-bearer', e1Bearer),
  limiterCost('ratelimit-on-codeblock-e1-basic', e1Basic),
  underWrongLogins('wrong-logins-1ps-codeblock-e1-basic', e1Basic, 1, '127.0.0.2'),
  underWrongLogins('wrong-logins-1ps-codeblock-e1-bearer', e1Bearer, 1, '127.0.0.3'),
  underWrongLogins('wrong-logins-100ps-codeblock-e1-basic', e1Basic, 100, '127.0.0.4'),
  underWrongLogins('wrong-logins-100ps-codeblock-e1-bearer', e1Bearer, 100, '127.0.0.5'),
];
