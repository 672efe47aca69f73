import { describe, expect, it } from 'vitest';
import { WriteGroups } from '../../src/platform/db/write-groups.ts';

/** A promise with its settlers outside. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets queued microtasks and promise chains run (WriteGroups starts the next group after a few awaits). */
const settle = () => new Promise<void>((r) => setImmediate(r));

/**
 * A runner that records every group it is given and keeps it running until the test ends it: `end(i)` resolves
 * the i-th group's run, `fail(i)` rejects it.
 */
function manualRunner() {
  const groups: string[][] = [];
  const runs: ReturnType<typeof deferred>[] = [];
  const run = (jobs: string[]) => {
    groups.push([...jobs]);
    const d = deferred();
    runs.push(d);
    return d.promise;
  };
  return {
    groups,
    run,
    end: async (i: number) => {
      runs[i]!.resolve();
      await settle();
    },
    fail: async (i: number, err: unknown = new Error('the run failed')) => {
      runs[i]!.reject(err);
      await settle();
    },
  };
}

describe('WriteGroups', () => {
  it('runs a job on an idle key at once, alone', () => {
    const r = manualRunner();
    const g = new WriteGroups<string>(r.run);
    g.submit('list', 'a');
    // Synchronously: nothing is held back to fill a group.
    expect(r.groups).toEqual([['a']]);
  });

  it('runs the jobs submitted while a group of their key runs together as the next group, in arrival order', async () => {
    const r = manualRunner();
    const g = new WriteGroups<string>(r.run);
    g.submit('list', 'a');
    g.submit('list', 'b1');
    g.submit('list', 'b2');
    g.submit('list', 'b3');
    await settle();
    // They wait while the first group runs.
    expect(r.groups).toEqual([['a']]);
    await r.end(0);
    expect(r.groups).toEqual([['a'], ['b1', 'b2', 'b3']]);
    // A job that comes while that group runs waits for it in turn.
    g.submit('list', 'c');
    await settle();
    expect(r.groups).toHaveLength(2);
    await r.end(1);
    expect(r.groups).toEqual([['a'], ['b1', 'b2', 'b3'], ['c']]);
  });

  it('cuts a queue longer than maxGroup into groups of maxGroup, in order', async () => {
    const r = manualRunner();
    const g = new WriteGroups<string>(r.run, 3);
    g.submit('list', 'first');
    const queued = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7'];
    for (const job of queued) g.submit('list', job);
    await r.end(0);
    expect(r.groups).toEqual([['first'], ['q1', 'q2', 'q3']]);
    // A job that comes meanwhile goes behind those already waiting.
    g.submit('list', 'late');
    await r.end(1);
    expect(r.groups.at(-1)).toEqual(['q4', 'q5', 'q6']);
    await r.end(2);
    expect(r.groups.at(-1)).toEqual(['q7', 'late']);
    await r.end(3);
    expect(r.groups).toEqual([['first'], ['q1', 'q2', 'q3'], ['q4', 'q5', 'q6'], ['q7', 'late']]);
  });

  it('keeps keys apart: a job of another key runs at once while the first key has a group running', async () => {
    const r = manualRunner();
    const g = new WriteGroups<string>(r.run);
    g.submit('one', 'a');
    g.submit('one', 'a-waits');
    g.submit('two', 'b');
    expect(r.groups).toEqual([['a'], ['b']]);
    // Ending the other key's group does not start the first key's next group.
    await r.end(1);
    expect(r.groups).toEqual([['a'], ['b']]);
    // And the other key is idle again: its next job starts at once.
    g.submit('two', 'b-again');
    expect(r.groups).toEqual([['a'], ['b'], ['b-again']]);
    await r.end(0);
    expect(r.groups).toEqual([['a'], ['b'], ['b-again'], ['a-waits']]);
  });

  it('goes on after a run that rejects, and the key is idle again afterwards', async () => {
    const r = manualRunner();
    const g = new WriteGroups<string>(r.run);
    g.submit('list', 'a');
    g.submit('list', 'b');
    await r.fail(0);
    // The failed group did not stall the queue: the next group runs.
    expect(r.groups).toEqual([['a'], ['b']]);
    g.submit('list', 'c');
    await r.fail(1);
    expect(r.groups).toEqual([['a'], ['b'], ['c']]);
    await r.end(2);
    // Nobody waits any more: the key is idle, and a later job starts at once, alone.
    g.submit('list', 'd');
    expect(r.groups).toEqual([['a'], ['b'], ['c'], ['d']]);
  });
});
