import { describe, expect, it } from 'vitest';
import { HashPool } from '../../src/platform/auth/hash-pool.ts';
import { AppError } from '../../src/platform/http/app-error.ts';

/** A hash that ends when the test says so. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { open, job: () => done.then(() => true) };
}

/** A pool on a clock the test moves: each finished hash "took" `took` ms. */
function poolWith(opts: { concurrency: number; maxWaitMs: number }) {
  let now = 0;
  const pool = new HashPool({ ...opts, now: () => now });
  const timed = (took: number) => async () => {
    now += took;
    return true;
  };
  return { pool, timed };
}

describe('HashPool', () => {
  it('runs at most `concurrency` hashes at once, the others in order as places free', async () => {
    const pool = new HashPool({ concurrency: 2, maxWaitMs: 60_000 });
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      pool.run(() => {
        started.push(i);
        return g.job();
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await runs[1];
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    gates[2]!.open();
    gates[3]!.open();
    expect(await Promise.all(runs)).toEqual([true, true, true, true]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('refuses a hash that would wait longer than allowed with 503 LOGIN_BUSY and Retry-After, before it is queued', async () => {
    const { pool, timed } = poolWith({ concurrency: 1, maxWaitMs: 1000 });
    // One hash taking 600 ms teaches the pool how long a hash takes.
    await pool.run(timed(600));
    const first = gate();
    const running = pool.run(first.job); // runs
    const queued = pool.run(timed(600)); // waits about 600 ms: accepted
    let refused: unknown;
    try {
      await pool.run(timed(600)); // would wait about 1200 ms
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 503, code: 'LOGIN_BUSY', headers: { 'Retry-After': '2' } });
    expect(() => pool.admit()).toThrow(AppError);
    first.open();
    await running;
    await queued;
    // Free again: admitted.
    expect(() => pool.admit()).not.toThrow();
  });

  it('never refuses a hash admitted before (its attempt is already counted)', async () => {
    const { pool, timed } = poolWith({ concurrency: 1, maxWaitMs: 0 });
    await pool.run(timed(500));
    const first = gate();
    const running = pool.run(first.job);
    expect(() => pool.admit()).toThrow(AppError);
    const admitted = pool.run(timed(500), true);
    first.open();
    expect(await running).toBe(true);
    expect(await admitted).toBe(true);
  });

  it('takes at least one place, and before it has timed a hash assumes 0.25 s per hash: a burst queues up to the bound', async () => {
    const pool = new HashPool({ concurrency: 0, maxWaitMs: 1000 });
    expect(pool.concurrency).toBe(1);
    expect(pool.expectedWaitMs()).toBe(0);
    const gates = Array.from({ length: 5 }, gate);
    const runs: Promise<boolean>[] = [];
    // One running and three waiting: a fifth would wait 4 × 0.25 s, the bound; a sixth 1.25 s, refused.
    for (const g of gates.slice(0, 4)) runs.push(pool.run(g.job));
    expect(pool.expectedWaitMs()).toBe(1000);
    runs.push(pool.run(gates[4]!.job));
    expect(() => pool.admit()).toThrow(AppError);
    // A stricter bound for one caller (a failing address): refused sooner.
    expect(() => pool.admit(100)).toThrow(AppError);
    // A hash timed outside the pool (a new password's) tells how long one takes: 100 ms, so 500 ms of waiting.
    pool.observe(100);
    expect(pool.expectedWaitMs()).toBe(500);
    expect(() => pool.admit()).not.toThrow();
    expect(() => pool.admit(400)).toThrow(AppError);
    for (const g of gates) g.open();
    await Promise.all(runs);
  });

  it('lets a burst of twelve logins wait its turn on one place by default (10 s), where a failing client is held to 1 s', () => {
    const pool = new HashPool({ concurrency: 1 });
    pool.observe(240);
    const gates = Array.from({ length: 12 }, gate);
    for (const g of gates) {
      pool.admit();
      void pool.run(g.job);
    }
    expect(pool.expectedWaitMs()).toBe(12 * 240);
    expect(() => pool.admit(1000)).toThrow(AppError);
    for (const g of gates) g.open();
  });
});
