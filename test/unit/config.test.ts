import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      baseUrl: 'http://localhost:8080',
      contextPath: '',
      dataDir: './data',
      adminUsername: 'admin',
      demo: true,
      codeblocksCompat: '5',
      maxAuthAttempts: 3,
      outboundAllowlist: [],
      logLevel: 'info',
    });
  });

  it('turns demo off by default on PostgreSQL and reads the context path from BASE_URL', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://x@h/db', BASE_URL: 'https://example.org/wiki/' });
    expect(c.demo).toBe(false);
    expect(c.baseUrl).toBe('https://example.org/wiki');
    expect(c.contextPath).toBe('/wiki');
  });

  it('delivers webhooks from a child process at niceness 10 unless told otherwise', () => {
    expect(loadConfig({}).webhooks).toMatchObject({ delivery: 'process', deliveryNice: 10 });
    expect(loadConfig({ WEBHOOK_DELIVERY: 'inline', WEBHOOK_DELIVERY_NICE: '0' }).webhooks).toMatchObject({ delivery: 'inline', deliveryNice: 0 });
  });

  it('splits the allowlist', () => {
    expect(loadConfig({ OUTBOUND_ALLOWLIST: ' https://a.example/x/ , http://b ' }).outboundAllowlist).toEqual(['https://a.example/x/', 'http://b']);
  });

  it('reads LOGIN_FAILURES_PER_ADDRESS as <count>:<minutes>, 30:10 by default, 0 or off for none', () => {
    expect(loadConfig({}).loginFailuresPerAddress).toEqual({ failures: 30, minutes: 10 });
    expect(loadConfig({ LOGIN_FAILURES_PER_ADDRESS: ' 5:1 ' }).loginFailuresPerAddress).toEqual({ failures: 5, minutes: 1 });
    expect(loadConfig({ LOGIN_FAILURES_PER_ADDRESS: '0' }).loginFailuresPerAddress).toBeUndefined();
    expect(loadConfig({ LOGIN_FAILURES_PER_ADDRESS: 'OFF' }).loginFailuresPerAddress).toBeUndefined();
    expect(loadConfig({}).sessionMaxPerUser).toBe(10);
  });

  it.each([
    ['LOGIN_FAILURES_PER_ADDRESS', { LOGIN_FAILURES_PER_ADDRESS: '30' }],
    ['LOGIN_FAILURES_PER_ADDRESS', { LOGIN_FAILURES_PER_ADDRESS: '0:10' }],
    ['LOGIN_FAILURES_PER_ADDRESS', { LOGIN_FAILURES_PER_ADDRESS: '3:0' }],
    ['LOGIN_FAILURES_PER_ADDRESS', { LOGIN_FAILURES_PER_ADDRESS: 'a:b' }],
    ['SESSION_MAX_PER_USER', { SESSION_MAX_PER_USER: '0' }],
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['MAX_AUTH_ATTEMPTS', { MAX_AUTH_ATTEMPTS: '0' }],
    ['CODEBLOCKS_COMPAT', { CODEBLOCKS_COMPAT: '6' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['BASE_URL', { BASE_URL: 'not a url' }],
    ['DEMO', { DEMO: 'maybe' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['WEBHOOK_DELIVERY', { WEBHOOK_DELIVERY: 'thread' }],
    ['WEBHOOK_DELIVERY_NICE', { WEBHOOK_DELIVERY_NICE: '20' }],
  ])('stops with a message naming %s', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
