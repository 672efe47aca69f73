import { TopicCounters } from './topic-counters.ts';

/**
 * What a change does inside one process, for both change feeds: the counter of its topic moves (what caches
 * compare, see `ChangeFeed.counter`) and then the callbacks registered with `on` run. That is also the order
 * in which another node's change arrives on PostgreSQL: the listener thread raises the counter, then tells
 * the main thread, which runs the callbacks.
 */
export class InProcessChanges {
  readonly counters: TopicCounters;
  private readonly callbacks = new Map<string, Set<() => void>>();

  /** `shared`: the counters live in a SharedArrayBuffer, for the PostgreSQL listener thread to raise. */
  constructor(shared: boolean) {
    this.counters = new TopicCounters(shared);
  }

  on(topic: string, fn: () => void): () => void {
    let set = this.callbacks.get(topic);
    if (!set) this.callbacks.set(topic, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  counter(topics: readonly string[]): () => number {
    return this.counters.reader(topics);
  }

  /** A change of `topic`; with no topic one that may have been missed, so every topic changed. */
  changed(topic?: string): void {
    this.counters.bump(topic);
    this.runCallbacks(topic);
  }

  /** Runs the callbacks of `topic` (of every topic when undefined) for a change already counted. */
  runCallbacks(topic: string | undefined): void {
    const sets = topic === undefined ? [...this.callbacks.values()] : [this.callbacks.get(topic)];
    for (const set of sets) for (const fn of set ?? []) fn();
  }
}
