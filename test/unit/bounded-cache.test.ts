import { describe, expect, it, vi } from 'vitest';
import { BoundedCache } from '../../src/platform/cache/bounded-cache.ts';
import { LocalChangeFeed, type ChangeFeed } from '../../src/platform/events/change-feed.ts';
import { DIRECTORY_TOPIC } from '../../src/platform/auth/auth-cache.ts';
import { WIKI_TOPIC } from '../../src/wiki/wiki-write.ts';
import { TRACKER_TOPIC } from '../../src/tracker/tracker-write.ts';
import { FIELD_OPTIONS_TOPIC, FIELDEDITOR_SETTINGS_TOPIC } from '../../src/fieldeditor/shared/fieldeditor.topics.ts';
import { TopicCounters, topicSlot, TOPIC_SLOTS } from '../../src/platform/events/topic-counters.ts';

/** A feed whose counters another thread would raise: here the test raises them, without any callback. */
function sharedFeed(): { feed: ChangeFeed; counters: TopicCounters } {
  const counters = new TopicCounters(true);
  counters.live = true;
  const feed: ChangeFeed = {
    get live() {
      return counters.live;
    },
    publish: async () => undefined,
    on: () => () => undefined,
    counter: (topics) => counters.reader(topics),
    close: async () => undefined,
  };
  return { feed, counters };
}

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

  it('treats its entries as gone once a counter of its topics moved, with no callback run', () => {
    const { feed, counters } = sharedFeed();
    const c = new BoundedCache<string, number>({ name: 'test', ttlMs: 60_000, maxEntries: 10, feed: { changes: feed, topics: ['wiki', 'directory'] } });
    c.set('a', 1);
    counters.bump('other');
    expect(c.get('a')).toBe(1);
    counters.bump('directory');
    expect(c.get('a')).toBeUndefined();
    expect(c.peek('a')).toBeUndefined();
    c.set('a', 2);
    expect(c.get('a')).toBe(2);
    // The epoch (raised when the listener connects again or is lost) invalidates every topic.
    counters.bump();
    expect(c.peek('a')).toBeUndefined();
  });

  it('does not store a value whose read began before a counter moved, stores one read after', async () => {
    const { feed, counters } = sharedFeed();
    const c = new BoundedCache<string, number>({ name: 'test', ttlMs: 60_000, maxEntries: 10, feed: { changes: feed, topics: ['wiki'] } });
    // The change commits (and the listener raises the counter) while the load is under way.
    const stale = await c.getOrLoad('k', async () => {
      counters.bump('wiki');
      return 1;
    });
    expect(stale).toBe(1);
    expect(c.get('k')).toBeUndefined();
    expect(await c.getOrLoad('k', async () => 2)).toBe(2);
    expect(c.get('k')).toBe(2);

    // The same with stamp and set, as callers that read without getOrLoad do.
    const since = c.stamp();
    counters.bump('wiki');
    c.set('j', 3, since);
    expect(c.get('j')).toBeUndefined();
    c.set('j', 4, c.stamp());
    expect(c.get('j')).toBe(4);
  });

  it('keeps a value read before a counter moved out of the cache even when it was stored before the move', () => {
    const { feed, counters } = sharedFeed();
    const c = new BoundedCache<string, number>({ name: 'test', ttlMs: 60_000, maxEntries: 10, feed: { changes: feed, topics: ['wiki'] } });
    const since = c.stamp();
    c.set('a', 1, since); // stored: nothing moved yet
    counters.bump('wiki'); // the listener thread raises the counter later
    expect(c.get('a')).toBeUndefined();
  });

  it('answers nothing while the feed is not live, and keeps nothing stored then once it is live again', () => {
    const { feed, counters } = sharedFeed();
    const c = new BoundedCache<string, number>({ name: 'test', ttlMs: 60_000, maxEntries: 10, feed: { changes: feed, topics: ['wiki'] } });
    c.set('a', 1);
    counters.live = false;
    counters.bump(); // lost: everything invalid
    expect(c.get('a')).toBeUndefined();
    c.set('b', 2, c.stamp()); // read from the database while not live
    counters.bump(); // connected again
    counters.live = true;
    expect(c.get('b')).toBeUndefined();
  });
});

describe('TopicCounters', () => {
  it('gives each topic a slot of its own among the topics in use, and a reader that moves with any of its topics', () => {
    const topics = [DIRECTORY_TOPIC, WIKI_TOPIC, TRACKER_TOPIC, FIELD_OPTIONS_TOPIC, FIELDEDITOR_SETTINGS_TOPIC];
    const slots = topics.map(topicSlot);
    expect(new Set(slots).size).toBe(topics.length);
    for (const slot of slots) expect(slot).toBeGreaterThanOrEqual(2);
    for (const slot of slots) expect(slot).toBeLessThan(2 + TOPIC_SLOTS);
    const counters = new TopicCounters();
    const read = counters.reader(['wiki', 'directory']);
    const before = read();
    counters.bump('tracker');
    expect(read()).toBe(before);
    counters.bump('wiki');
    const afterWiki = read();
    expect(afterWiki).not.toBe(before);
    counters.bump();
    expect(read()).not.toBe(afterWiki);
  });

  it('moves after a counter wraps around', () => {
    const counters = new TopicCounters();
    const read = counters.reader(['wiki']);
    counters.cells[topicSlot('wiki')] = 2 ** 31 - 1;
    const before = read();
    counters.bump('wiki');
    expect(read()).not.toBe(before);
  });

  it('the local feed raises its counters on publish', async () => {
    const feed = new LocalChangeFeed();
    const read = feed.counter(['wiki']);
    const before = read();
    await feed.publish('wiki');
    expect(read()).not.toBe(before);
  });
});

