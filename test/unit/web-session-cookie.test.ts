import { describe, expect, it } from 'vitest';
import {
  clearedSessionCookie,
  generateSessionId,
  hashSessionId,
  readSessionCookie,
  sessionCookie,
} from '../../src/web/sessions/session-cookie.ts';
import { passesXsrfCheck } from '../../src/web/sessions/xsrf.ts';

describe('session cookie', () => {
  const id = generateSessionId();

  it('issues 43 URL-safe characters, different every time, and hashes them for storage', () => {
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateSessionId()).not.toBe(id);
    expect(hashSessionId(id)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSessionId(id)).not.toContain(id);
  });

  it('is HttpOnly and SameSite=Strict on the root path without a context path, Secure only on https', () => {
    expect(sessionCookie(id, { contextPath: '', secure: false })).toBe(`JSESSIONID=${id}; Path=/; HttpOnly; SameSite=Strict`);
    expect(sessionCookie(id, { contextPath: '/wiki', secure: true })).toBe(`JSESSIONID=${id}; Path=/wiki; HttpOnly; SameSite=Strict; Secure`);
  });

  it('is cleared with the same scope and Max-Age=0', () => {
    expect(clearedSessionCookie({ contextPath: '/wiki', secure: false })).toBe('JSESSIONID=; Path=/wiki; HttpOnly; SameSite=Strict; Max-Age=0');
  });

  it.each([
    [`JSESSIONID=${id}`, id],
    [`a=b; JSESSIONID=${id}; c=d`, id],
    [`JSESSIONID="${id}"`, id],
    [`JSESSIONID=short; JSESSIONID=${id}`, id],
    [`XJSESSIONID=${id}`, undefined],
    ['JSESSIONID=', undefined],
    [`JSESSIONID=${id}x`, undefined],
    [`JSESSIONID=${id.slice(0, 42)}%`, undefined],
    ['', undefined],
    [undefined, undefined],
    [`a=${'x'.repeat(20_000)}; JSESSIONID=${id}`, undefined],
  ])('reads %j as %j', (header, expected) => {
    expect(readSessionCookie(header)).toBe(expected);
  });
});

describe('XSRF rule', () => {
  it.each(['GET', 'HEAD', 'OPTIONS', 'get'])('lets %s through without the header', (method) => {
    expect(passesXsrfCheck(method, undefined)).toBe(true);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses %s without X-Atlassian-Token: no-check', (method) => {
    expect(passesXsrfCheck(method, undefined)).toBe(false);
    expect(passesXsrfCheck(method, 'nocheck')).toBe(false);
    expect(passesXsrfCheck(method, '')).toBe(false);
    expect(passesXsrfCheck(method, 'no-check')).toBe(true);
    expect(passesXsrfCheck(method, ' No-Check ')).toBe(true);
    expect(passesXsrfCheck(method, ['no-check', 'x'])).toBe(true);
  });
});
