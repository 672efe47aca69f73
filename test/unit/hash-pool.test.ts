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

  it('takes at least one place, and before it has timed a hash lets one wait per place and refuses a longer queue', async () => {
    const pool = new HashPool({ concurrency: 0, maxWaitMs: 1000 });
    expect(pool.concurrency).toBe(1);
    expect(pool.expectedWaitMs()).toBe(0);
    expect(() => pool.admit()).not.toThrow();
    const first = gate();
    const second = gate();
    const runs = [pool.run(first.job), pool.run(second.job)];
    // One running, one waiting: a third would wait for an unknown time behind a queue.
    expect(() => pool.admit()).toThrow(AppError);
    // A hash timed outside the pool (a new password's) tells how long one takes: 300 ms, so 600 ms of waiting.
    pool.observe(300);
    expect(pool.expectedWaitMs()).toBe(600);
    expect(() => pool.admit()).not.toThrow();
    first.open();
    second.open();
    await Promise.all(runs);
  });
});
