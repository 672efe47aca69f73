/**
 * The change counters of one process, one 32-bit cell per topic slot, readable in nanoseconds from any
 * thread: on PostgreSQL they live in a SharedArrayBuffer that the change listener's worker thread raises as
 * notifications arrive, while the main thread's caches only read them (see PgChangeFeed).
 *
 * Layout: cell 0 is the `live` flag (1 while every committed change reaches this process), cell 1 the epoch
 * (raised when the listener connects or is lost: every cache of every topic is then invalid), and cells
 * 2 … 2 + TOPIC_SLOTS - 1 the topics, by a hash of their name, then KEYED_SLOTS cells for keyed topics (see
 * `keyedTopic`). Two topics that share a slot only cost each other's caches a few extra misses. Counters only
 * grow (modulo 2^32), so the sum of a cache's cells moves whenever one of them does.
 */
export const TOPIC_SLOTS = 64;
/** Cells of keyed topics: a range of their own, so that no key can ever move a named topic's cell. */
export const KEYED_SLOTS = 256;
export const LIVE_CELL = 0;
export const EPOCH_CELL = 1;
const FIRST_TOPIC_CELL = 2;
const FIRST_KEYED_CELL = FIRST_TOPIC_CELL + TOPIC_SLOTS;
export const COUNTER_CELLS = FIRST_KEYED_CELL + KEYED_SLOTS;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const KEYED = /^[a-z-]+#(\d+)$/;

/**
 * A topic about one key of a family (`login#17` for a user name whose hash lands in bucket 17): its changes
 * move one keyed cell, never a named topic's, so a cache that must forget only what concerns one key (the
 * failed logins of one name) is not emptied by changes of other keys, and no other cache is touched. The key
 * itself is not in the topic (names may hold any character); keys of one bucket share its cell.
 */
export function keyedTopic(family: string, key: string): string {
  return `${family}#${fnv1a(key) % KEYED_SLOTS}`;
}

/** The cell of `topic` (FNV-1a of its name, or a keyed topic's bucket): the same in every process of the same version. */
export function topicSlot(topic: string): number {
  const keyed = KEYED.exec(topic);
  if (keyed) return FIRST_KEYED_CELL + (Number(keyed[1]) % KEYED_SLOTS);
  return FIRST_TOPIC_CELL + (fnv1a(topic) % TOPIC_SLOTS);
}

export class TopicCounters {
  readonly cells: Int32Array;

  constructor(shared = false) {
    const bytes = COUNTER_CELLS * Int32Array.BYTES_PER_ELEMENT;
    this.cells = new Int32Array(shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  }

  get live(): boolean {
    return Atomics.load(this.cells, LIVE_CELL) === 1;
  }

  set live(value: boolean) {
    Atomics.store(this.cells, LIVE_CELL, value ? 1 : 0);
  }

  /** Raises the counter of `topic`, or with no topic the epoch (every topic's caches become invalid). */
  bump(topic?: string): void {
    Atomics.add(this.cells, topic === undefined ? EPOCH_CELL : topicSlot(topic), 1);
  }

  /** A reader of a number that moves whenever one of `topics` (or the epoch) is raised. */
  reader(topics: readonly string[]): () => number {
    const slots = [EPOCH_CELL, ...new Set(topics.map(topicSlot))];
    const cells = this.cells;
    return () => {
      let sum = 0;
      for (const slot of slots) sum = (sum + Atomics.load(cells, slot)) | 0;
      return sum;
    };
  }
}
