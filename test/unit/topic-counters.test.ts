import { describe, expect, it } from 'vitest';
import { COUNTER_CELLS, KEYED_SLOTS, TOPIC_SLOTS, TopicCounters, keyedTopic, topicSlot } from '../../src/platform/events/topic-counters.ts';

describe('keyed topics (a failed login moves only its name bucket)', () => {
  it('land in a range of their own, never on a named topic\'s slot', () => {
    const named = new Set(['directory', 'wiki', 'tracker', 'fieldeditor-options', 'fieldeditor-settings'].map(topicSlot));
    for (let i = 0; i < 2_000; i++) {
      const slot = topicSlot(keyedTopic('login', `name-${i}`));
      expect(named.has(slot)).toBe(false);
      expect(slot).toBeGreaterThanOrEqual(2 + TOPIC_SLOTS);
      expect(slot).toBeLessThan(COUNTER_CELLS);
    }
    expect(COUNTER_CELLS).toBe(2 + TOPIC_SLOTS + KEYED_SLOTS);
  });

  it('carry only the bucket, never the key, and spread keys over the buckets', () => {
    expect(keyedTopic('login', 'a|b\ncé')).toMatch(/^login#\d+$/);
    const buckets = new Set(Array.from({ length: 2_000 }, (_, i) => keyedTopic('login', `user${i}`)));
    expect(buckets.size).toBeGreaterThan(KEYED_SLOTS * 0.9);
  });

  it('move their reader, and not the reader of a named topic', () => {
    const counters = new TopicCounters();
    const directory = counters.reader(['directory']);
    const login = counters.reader([keyedTopic('login', 'ann')]);
    const [d0, l0] = [directory(), login()];
    counters.bump(keyedTopic('login', 'ann'));
    expect(directory()).toBe(d0);
    expect(login()).not.toBe(l0);
  });
});
