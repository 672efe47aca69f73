import { describe, expect, it, vi } from 'vitest';
import { BoundedCache } from '../../src/platform/cache/bounded-cache.ts';
import { LocalChangeFeed, type ChangeFeed } from '../../src/platform/events/change-feed.ts';

describe('BoundedCache', () => {
  it('keeps at most maxEntries, dropping the oldest first', () => {
    const c = new BoundedCache<string, number>({ name: 'test', ttlMs: 60_000, maxEntries: 2 });
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('keeps the total weight under its budget and refuses entries too big to be worth it', () => {
    const c = new BoundedCache<string, string>({ name: 'test', ttlMs: 60_000, maxEntries: 100, maxWeight: 100, weigh: (v) => v.length });
    c.set('a', 'x'.repeat(20));
    c.set('b', 'x'.repeat(20));
    c.set('c', 'x'.repeat(20));
    c.set('d', 'x'.repeat(20));
    c.set('e', 'x'.repeat(20));
    c.set('f', 'x'.repeat(20));
    expect(c.get('a')).toBeUndefined();
    expect(c.get('f')).toBeDefined();
    c.set('huge', 'x'.repeat(30));
    expect(c.get('huge')).toBeUndefined();
  });

  it('forgets entries after their time', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const c = new BoundedCache<string, number>({ name: 'test', ttlMs: 1000, maxEntries: 10 });
      c.set('a', 1);
      vi.setSystemTime(Date.now() + 1001);
      expect(c.get('a')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('is emptied by its change-feed topics and bypassed while the feed is down', async () => {
    const feed = new LocalChangeFeed();
    const c = new BoundedCache<string, number>({ name: 'test', ttlMs: 60_000, maxEntries: 10, feed: { changes: feed, topics: ['wiki'] } });
    c.set('a', 1);
    await feed.publish('other');
    expect(c.get('a')).toBe(1);
    await feed.publish('wiki');
    expect(c.get('a')).toBeUndefined();

    let live = true;
    const flaky: ChangeFeed = { get live() { return live; }, publish: async () => undefined, on: () => () => undefined, counter: () => () => 0, close: async () => undefined };
    const d = new BoundedCache<string, number>({ name: 'test', ttlMs: 60_000, maxEntries: 10, feed: { changes: flaky, topics: ['wiki'] } });
    d.set('a', 1);
    live = false;
    expect(d.get('a')).toBeUndefined();
  });

  it('loads once and does not remember "not found"', async () => {
    const c = new BoundedCache<string, number | undefined>({ name: 'test', ttlMs: 60_000, maxEntries: 10 });
    const load = vi.fn(async () => 7);
    expect(await c.getOrLoad('k', load)).toBe(7);
    expect(await c.getOrLoad('k', load)).toBe(7);
    expect(load).toHaveBeenCalledTimes(1);
    const missing = vi.fn(async () => undefined);
    await c.getOrLoad('m', missing);
    await c.getOrLoad('m', missing);
    expect(missing).toHaveBeenCalledTimes(2);
  });
});
