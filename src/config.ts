import { z } from 'zod';
import { StartupError } from './platform/startup-error.ts';
import { DEFAULT_DATA_DIR } from './platform/db/embedded-data-dir.ts';
import { parseTrustEntry } from './platform/http/client-address.ts';

/** The shortest password a person may choose by default (PASSWORD_MIN_LENGTH; directory/password-policy.ts). */
export const DEFAULT_PASSWORD_MIN_LENGTH = 12;

/**
 * The whole configuration, read once from the environment (a `.env` file may hold it; see main.ts).
 * A bad value stops start-up with one line naming the variable, never a half-configured server.
 */
const intFrom = (name: string, def: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return def;
      if (!/^\d+$/.test(v.trim())) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number` });
        return z.NEVER;
      }
      const n = Number(v);
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be between ${min} and ${max}` });
        return z.NEVER;
      }
      return n;
    });

const flag = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const s = v.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(s)) return true;
      if (['0', 'false', 'no', 'off'].includes(s)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be 1 or 0` });
      return z.NEVER;
    });

/**
 * `<count>:<minutes>` (e.g. `30:10`): at most `count` of something per `minutes`; `0` or `off` switches the
 * limit off (undefined).
 */
const countPerMinutes = (name: string, def: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v === undefined || v.trim() === '' ? def : v.trim().toLowerCase();
      if (s === '0' || s === 'off') return undefined;
      const m = /^(\d{1,9}):(\d{1,6})$/.exec(s);
      const count = Number(m?.[1]);
      const minutes = Number(m?.[2]);
      if (!m || count < 1 || minutes < 1 || minutes > 525_600) {
        ctx.addIssue({ code: 'custom', message: `${name} must be <count>:<minutes> (e.g. ${def}), each at least 1 and at most 525600 minutes, or 0 to switch it off` });
        return z.NEVER;
      }
      return { count, minutes };
    });

/** A sustained rate and a burst (`RATE_LIMIT_*`): a token bucket that holds `burst` and refills `perSecond`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/**
 * `<per second>:<burst>` (e.g. `100:500`; the rate may have decimals, `0.5:10` is one every two seconds); `0` or
 * `off` switches the limit off (undefined).
 */
const ratePerSecond = (name: string, def: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx): RateLimit | undefined => {
      const s = v === undefined || v.trim() === '' ? def : v.trim().toLowerCase();
      if (s === '0' || s === 'off') return undefined;
      const m = /^(\d{1,9}(?:\.\d{1,6})?):(\d{1,9})$/.exec(s);
      const perSecond = Number(m?.[1]);
      const burst = Number(m?.[2]);
      if (!m || !(perSecond > 0) || burst < 1) {
        ctx.addIssue({ code: 'custom', message: `${name} must be <per second>:<burst> (e.g. ${def}), a rate above 0 and a burst of at least 1, or 0 to switch it off` });
        return z.NEVER;
      }
      return Object.freeze({ perSecond, burst });
    });

/** TRUST_PROXY: addresses and CIDR blocks of the reverse proxies whose `X-Forwarded-For` is believed. */
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const entries = (v ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    for (const entry of entries) {
      const parsed = parseTrustEntry(entry);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: `TRUST_PROXY must list IP addresses or CIDR blocks separated by commas: ${parsed}` });
        return z.NEVER;
      }
    }
    return Object.freeze(entries);
  });

const envSchema = z.object({
  PORT: intFrom('PORT', 8080, 0, 65535),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  BASE_URL: z.string().trim().optional(),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must start with postgres://'),
  DATA_DIR: z.string().trim().min(1).default(DEFAULT_DATA_DIR),
  ADMIN_USERNAME: z.string().trim().min(1).max(255).default('admin'),
  ADMIN_PASSWORD: z.string().optional(),
  DEMO: flag('DEMO'),
  CODEBLOCKS_COMPAT: z.enum(['5', '4', '3.4']).default('5'),
  CODEBLOCK_MAX_MB: intFrom('CODEBLOCK_MAX_MB', 10, 1, 1024),
  PASSWORD_MIN_LENGTH: intFrom('PASSWORD_MIN_LENGTH', DEFAULT_PASSWORD_MIN_LENGTH, 1, 1024),
  MAX_AUTH_ATTEMPTS: intFrom('MAX_AUTH_ATTEMPTS', 3, 1, 1_000_000_000),
  LOCKOUT_MINUTES: intFrom('LOCKOUT_MINUTES', 15, 0, 525_600),
  LOGIN_FAILURES_PER_ADDRESS: countPerMinutes('LOGIN_FAILURES_PER_ADDRESS', '30:10'),
  CLIENT_IPV6_PREFIX: intFrom('CLIENT_IPV6_PREFIX', 64, 1, 128),
  LOGIN_DELAY_AFTER_FAILURES: intFrom('LOGIN_DELAY_AFTER_FAILURES', 10, 0, 1_000_000_000),
  LOGIN_DELAY_MAX_SECONDS: intFrom('LOGIN_DELAY_MAX_SECONDS', 30, 1, 3600),
  LOGIN_HASH_CONCURRENCY: intFrom('LOGIN_HASH_CONCURRENCY', 0, 0, 1024),
  LOGIN_QUEUE_SECONDS: intFrom('LOGIN_QUEUE_SECONDS', 10, 1, 600),
  OUTBOUND_ALLOWLIST: z.string().default(''),
  WEBHOOK_ALLOWLIST: z.string().optional(),
  WEBHOOK_POLL_MS: intFrom('WEBHOOK_POLL_MS', 1_000, 10, 3_600_000),
  WEBHOOK_LEASE_MS: intFrom('WEBHOOK_LEASE_MS', 30_000, 100, 3_600_000),
  WEBHOOK_TIMEOUT_MS: intFrom('WEBHOOK_TIMEOUT_MS', 10_000, 10, 600_000),
  WEBHOOK_BACKOFF_MS: intFrom('WEBHOOK_BACKOFF_MS', 10_000, 1, 3_600_000),
  WEBHOOK_RETRY_SECONDS: intFrom('WEBHOOK_RETRY_SECONDS', 86_400, 1, 31_536_000),
  WEBHOOK_DELIVERY: z.enum(['process', 'inline'], { error: 'WEBHOOK_DELIVERY must be process or inline' }).default('process'),
  WEBHOOK_DELIVERY_NICE: intFrom('WEBHOOK_DELIVERY_NICE', 10, 0, 19),
  MIGRATION_UPLOAD_MAX_MB: intFrom('MIGRATION_UPLOAD_MAX_MB', 2048, 1, 1_048_576),
  WIKI_EXPORT_MAX_TEXT_MB: intFrom('WIKI_EXPORT_MAX_TEXT_MB', 64, 1, 1024),
  SOURCE_MAX_ANSWER_MB: intFrom('SOURCE_MAX_ANSWER_MB', 64, 1, 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DB_POOL_MAX: intFrom('DB_POOL_MAX', 10, 1, 500),
  SHUTDOWN_GRACE_MS: intFrom('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  // Metrics are off unless one of these is set; a token shorter than 16 characters would be guessable.
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .refine((v) => v === undefined || (v.length >= 16 && v.length <= 1024 && /^[\x21-\x7e]+$/.test(v)), 'METRICS_TOKEN must be 16 to 1024 printable ASCII characters without spaces'),
  METRICS_PORT: intFrom('METRICS_PORT', 0, 0, 65535),
  METRICS_HOST: z.string().trim().optional(),
  JOBS_POLL_MS: intFrom('JOBS_POLL_MS', 5_000, 10, 3_600_000),
  JOBS_LEASE_MS: intFrom('JOBS_LEASE_MS', 60_000, 100, 86_400_000),
  JOBS_TICK_MS: intFrom('JOBS_TICK_MS', 3_600_000, 100, 604_800_000),
  AUTH_FAILURES_RETENTION_HOURS: intFrom('AUTH_FAILURES_RETENTION_HOURS', 24, 1, 87_600),
  FAST_PATH: flag('FAST_PATH'),
  SESSION_IDLE_MINUTES: intFrom('SESSION_IDLE_MINUTES', 30, 1, 525_600),
  SESSION_MAX_HOURS: intFrom('SESSION_MAX_HOURS', 12, 1, 8_760),
  SESSION_MAX_PER_USER: intFrom('SESSION_MAX_PER_USER', 10, 1, 10_000),
  RATE_LIMITS: flag('RATE_LIMITS'),
  RATE_LIMIT_DOWNLOADS: ratePerSecond('RATE_LIMIT_DOWNLOADS', '500:5000'),
  RATE_LIMIT_READS: ratePerSecond('RATE_LIMIT_READS', '100:500'),
  RATE_LIMIT_WRITES: ratePerSecond('RATE_LIMIT_WRITES', '50:200'),
  RATE_LIMIT_LOGINS: ratePerSecond('RATE_LIMIT_LOGINS', '5:20'),
  RATE_LIMIT_PER_ADDRESS: ratePerSecond('RATE_LIMIT_PER_ADDRESS', '1000:5000'),
  TRUST_PROXY: trustProxy,
});

export type Config = Readonly<{
  port: number;
  host: string;
  /** Absolute base URL without a trailing slash, e.g. `http://localhost:8080/wiki`. */
  baseUrl: string;
  /** Path part of baseUrl (`''` or `/wiki`): every route is served under it. */
  contextPath: string;
  databaseUrl: string | undefined;
  /** Folder of the embedded database, or `memory://`. Only used without databaseUrl. */
  dataDir: string;
  adminUsername: string;
  adminPassword: string | undefined;
  demo: boolean;
  codeblocksCompat: '5' | '4' | '3.4';
  /** The largest rendered code block a download answers (CODEBLOCK_MAX_MB, in bytes); beyond it a 500 MACRO_BODY_PROCESSING. */
  codeblockMaxBytes: number;
  /** Shortest password a person may choose, not counting the user name in it (directory/password-policy.ts). */
  passwordMinLength: number;
  maxAuthAttempts: number;
  /** 0: a locked account stays locked until an administrator resets it. */
  lockoutMinutes: number;
  /** Failed logins one client address may have in a window (LOGIN_FAILURES_PER_ADDRESS); undefined: no limit. */
  loginFailuresPerAddress: Readonly<{ failures: number; minutes: number }> | undefined;
  /** CLIENT_IPV6_PREFIX: the bits of an IPv6 address that name one client for every per-address count. */
  clientIpv6Prefix: number;
  /** A name's failures from all addresses beyond `afterFailures` (0: never) make each further check wait, up to `maxSeconds`. */
  loginDelay: Readonly<{ afterFailures: number; maxSeconds: number }>;
  /** Password hashes at once (LOGIN_HASH_CONCURRENCY; 0: half the cores) and how long a login may wait for one. */
  loginHashes: Readonly<{ concurrency: number; queueSeconds: number }>;
  outboundAllowlist: readonly string[];
  /**
   * Webhooks (docs/webhooks.md): the allowlist of target URLs (WEBHOOK_ALLOWLIST, or OUTBOUND_ALLOWLIST when it
   * is unset), how often a node looks for work, its lease on a subscription, an attempt's timeout, the first
   * back-off and how long a delivery is retried before its subscription is marked failing.
   */
  webhooks: Readonly<{
    allowlist: readonly string[];
    pollMs: number;
    leaseMs: number;
    timeoutMs: number;
    backoffMs: number;
    retrySeconds: number;
    /**
     * On PostgreSQL, 'process' (WEBHOOK_DELIVERY): a child process of the server delivers, at the niceness
     * WEBHOOK_DELIVERY_NICE, so deliveries take only the CPU that requests leave; 'inline': the server itself.
     * With the embedded database the server always delivers itself.
     */
    delivery: 'process' | 'inline';
    deliveryNice: number;
  }>;
  /** Largest space export an administrator may upload to POST /rest/addon-pair/1/migration/wiki-export (bytes). */
  migrationUploadMaxBytes: number;
  /** Longest node (text, CDATA) of a wiki export's entities.xml, in characters (WIKI_EXPORT_MAX_TEXT_MB). */
  wikiExportMaxTextChars: number;
  /** Largest answer of a live import's source (a wiki's or tracker's REST) read, in bytes (SOURCE_MAX_ANSWER_MB). */
  sourceMaxAnswerBytes: number;
  logLevel: string;
  dbPoolMax: number;
  shutdownGraceMs: number;
  /** Off (undefined) unless METRICS_TOKEN or METRICS_PORT is set; see docs/observability.md. */
  metrics:
    | Readonly<{
        /** Bearer secret `/metrics` requires; unset: no token (only allowed on a port of its own). */
        token: string | undefined;
        /** A listener of its own for `/metrics` (0: served on the main port, under the context path). */
        port: number;
        host: string;
      }>
    | undefined;
  /** Background jobs (src/platform/jobs): poll interval, lease length, schedule tick. */
  jobs: Readonly<{ pollMs: number; leaseMs: number; tickMs: number }>;
  /** Unlocked failed-login counters untouched this long are pruned by the scheduled JobPruneAuthFailures. */
  authFailuresRetentionHours: number;
  /** Cache hits of E1 and `/code` answered before Express (src/codeblocks/download-fast-path.ts). */
  fastPath: boolean;
  /** A web session unused for this long ends. */
  sessionIdleMinutes: number;
  /** A web session ends this long after sign-in, used or not. */
  sessionMaxHours: number;
  /** Live web sessions one user may have; a sign-in beyond it ends the oldest. */
  sessionMaxPerUser: number;
  /**
   * Rate limits per API family and credential, and per client address (docs/configuration.md, "Limits");
   * undefined with RATE_LIMITS=off; a family's undefined limit is off.
   */
  rateLimits: Readonly<{ downloads?: RateLimit; reads?: RateLimit; writes?: RateLimit; logins?: RateLimit; perAddress?: RateLimit }> | undefined;
  /** TRUST_PROXY: the reverse proxies (addresses, CIDR blocks) whose `X-Forwarded-For` names the client; empty: none. */
  trustProxy: readonly string[];
}>;

export class ConfigError extends StartupError {}

/** Listen addresses only this machine can reach. */
export const isLoopbackHost = (host: string): boolean => {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
};

/**
 * Why the server must not listen with this configuration, or undefined (issue 44): beyond loopback without
 * ADMIN_PASSWORD the first administrator would be `admin`/`admin` for anyone on the network.
 */
export function listenRefusal(config: Pick<Config, 'host' | 'adminPassword'>): string | undefined {
  if (isLoopbackHost(config.host) || config.adminPassword) return undefined;
  return `HOST=${config.host} listens beyond this machine, but ADMIN_PASSWORD is not set: set ADMIN_PASSWORD (the first administrator's password), or listen on 127.0.0.1`;
}

/** A comma-separated list, entries trimmed, empty ones dropped. */
const listOf = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0] ?? '')}: ${issue.message}`);
  }
  const e = parsed.data;
  const rawBase = e.BASE_URL && e.BASE_URL !== '' ? e.BASE_URL : `http://localhost:${e.PORT}`;
  let url: URL;
  try {
    url = new URL(rawBase);
  } catch {
    throw new ConfigError(`Invalid configuration: BASE_URL: not an absolute URL: ${rawBase}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('Invalid configuration: BASE_URL: must be an http:// or https:// URL');
  }
  const contextPath = url.pathname.replace(/\/+$/, '');
  if (e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new ConfigError('Invalid configuration: METRICS_PORT: must differ from PORT (or leave it unset and set METRICS_TOKEN)');
  }
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    baseUrl: `${url.origin}${contextPath}`,
    contextPath,
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir: e.DATA_DIR,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD === '' ? undefined : e.ADMIN_PASSWORD,
    // Demo users (alice/alice …) only by default on a loopback address: never offered to a network unasked.
    demo: e.DEMO ?? (!e.DATABASE_URL && isLoopbackHost(e.HOST)),
    codeblocksCompat: e.CODEBLOCKS_COMPAT,
    codeblockMaxBytes: e.CODEBLOCK_MAX_MB * 1024 * 1024,
    passwordMinLength: e.PASSWORD_MIN_LENGTH,
    maxAuthAttempts: e.MAX_AUTH_ATTEMPTS,
    lockoutMinutes: e.LOCKOUT_MINUTES,
    loginFailuresPerAddress: e.LOGIN_FAILURES_PER_ADDRESS && Object.freeze({ failures: e.LOGIN_FAILURES_PER_ADDRESS.count, minutes: e.LOGIN_FAILURES_PER_ADDRESS.minutes }),
    clientIpv6Prefix: e.CLIENT_IPV6_PREFIX,
    loginDelay: Object.freeze({ afterFailures: e.LOGIN_DELAY_AFTER_FAILURES, maxSeconds: e.LOGIN_DELAY_MAX_SECONDS }),
    loginHashes: Object.freeze({ concurrency: e.LOGIN_HASH_CONCURRENCY, queueSeconds: e.LOGIN_QUEUE_SECONDS }),
    outboundAllowlist: Object.freeze(listOf(e.OUTBOUND_ALLOWLIST)),
    webhooks: Object.freeze({
      allowlist: Object.freeze(listOf(e.WEBHOOK_ALLOWLIST?.trim() ? e.WEBHOOK_ALLOWLIST : e.OUTBOUND_ALLOWLIST)),
      pollMs: e.WEBHOOK_POLL_MS,
      leaseMs: e.WEBHOOK_LEASE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      backoffMs: e.WEBHOOK_BACKOFF_MS,
      retrySeconds: e.WEBHOOK_RETRY_SECONDS,
      delivery: e.WEBHOOK_DELIVERY,
      deliveryNice: e.WEBHOOK_DELIVERY_NICE,
    }),
    migrationUploadMaxBytes: e.MIGRATION_UPLOAD_MAX_MB * 1024 * 1024,
    wikiExportMaxTextChars: e.WIKI_EXPORT_MAX_TEXT_MB * 1024 * 1024,
    sourceMaxAnswerBytes: e.SOURCE_MAX_ANSWER_MB * 1024 * 1024,
    logLevel: e.LOG_LEVEL,
    dbPoolMax: e.DB_POOL_MAX,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    metrics:
      e.METRICS_TOKEN !== undefined || e.METRICS_PORT !== 0
        ? Object.freeze({ token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST || e.HOST })
        : undefined,
    jobs: Object.freeze({ pollMs: e.JOBS_POLL_MS, leaseMs: e.JOBS_LEASE_MS, tickMs: e.JOBS_TICK_MS }),
    authFailuresRetentionHours: e.AUTH_FAILURES_RETENTION_HOURS,
    fastPath: e.FAST_PATH ?? true,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    sessionMaxPerUser: e.SESSION_MAX_PER_USER,
    rateLimits:
      e.RATE_LIMITS === false
        ? undefined
        : Object.freeze({
            downloads: e.RATE_LIMIT_DOWNLOADS,
            reads: e.RATE_LIMIT_READS,
            writes: e.RATE_LIMIT_WRITES,
            logins: e.RATE_LIMIT_LOGINS,
            perAddress: e.RATE_LIMIT_PER_ADDRESS,
          }),
    trustProxy: e.TRUST_PROXY,
  });
}
