// Issue 44: the growing delay of a name guessed from many addresses (login-delay.ts).
import { describe, expect, it } from 'vitest';
import { loginDelayMs } from '../../src/platform/auth/login-delay.ts';

describe('loginDelayMs', () => {
  it('waits nothing up to the threshold, then 1 s doubling up to the maximum', () => {
    const settings = { afterFailures: 10, maxSeconds: 30 };
    expect([0, 9, 10].map((n) => loginDelayMs(n, settings))).toEqual([0, 0, 0]);
    expect([11, 12, 13, 14, 15, 16, 17, 1000].map((n) => loginDelayMs(n, settings) / 1000)).toEqual([1, 2, 4, 8, 16, 30, 30, 30]);
  });

  it('waits nothing when switched off', () => {
    expect(loginDelayMs(500, { afterFailures: 0, maxSeconds: 30 })).toBe(0);
    expect(loginDelayMs(500, undefined)).toBe(0);
  });
});
