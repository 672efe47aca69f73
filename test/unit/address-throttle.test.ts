import { describe, expect, it } from 'vitest';
import { AddressThrottle } from '../../src/platform/auth/address-throttle.ts';
import { AppError } from '../../src/platform/http/app-error.ts';

function throttleAt(limit: { failures: number; minutes: number } | undefined) {
  let now = 1_000_000;
  const throttle = new AddressThrottle(limit, () => now);
  return { throttle, advance: (ms: number) => (now += ms) };
}

const refusal = (fn: () => unknown): AppError | undefined => {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  return undefined;
};

describe('AddressThrottle (LOGIN_FAILURES_PER_ADDRESS)', () => {
  it('refuses an address after its failures, with 429 and the seconds until its window ends; other addresses go on', () => {
    const { throttle, advance } = throttleAt({ failures: 3, minutes: 10 });
    for (let i = 0; i < 3; i++) throttle.reserve('10.0.0.1');
    advance(60_000);
    const err = refusal(() => throttle.reserve('10.0.0.1'));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 429, code: 'TOO_MANY_FAILED_LOGINS', headers: { 'Retry-After': String(9 * 60) } });
    expect(refusal(() => throttle.reserve('10.0.0.2'))).toBeUndefined();
  });

  it('counts places still being checked, so concurrent guesses count as sequential ones', () => {
    const { throttle } = throttleAt({ failures: 2, minutes: 10 });
    throttle.reserve('a');
    throttle.reserve('a');
    expect(refusal(() => throttle.reserve('a'))?.status).toBe(429);
  });

  it('gives a success its place back, so logins that succeed never use up the window', () => {
    const { throttle } = throttleAt({ failures: 2, minutes: 10 });
    for (let i = 0; i < 10; i++) {
      const release = throttle.reserve('a');
      release();
      release(); // a second call changes nothing
    }
    throttle.reserve('a');
    throttle.reserve('a');
    expect(refusal(() => throttle.reserve('a'))?.status).toBe(429);
  });

  it('opens a new window once the old one has passed', () => {
    const { throttle, advance } = throttleAt({ failures: 1, minutes: 5 });
    throttle.reserve('a');
    expect(refusal(() => throttle.reserve('a'))?.status).toBe(429);
    advance(5 * 60_000);
    expect(refusal(() => throttle.reserve('a'))).toBeUndefined();
  });

  it('counts nothing when switched off or when the address is unknown', () => {
    const off = throttleAt(undefined).throttle;
    for (let i = 0; i < 100; i++) off.reserve('a');
    const on = throttleAt({ failures: 1, minutes: 5 }).throttle;
    for (let i = 0; i < 100; i++) on.reserve(undefined);
    expect(refusal(() => on.reserve('a'))).toBeUndefined();
  });
});
