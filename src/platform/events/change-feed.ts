import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { pgDriver } from '../db/pg-driver.ts';
import type { Logger } from '../log/logger.ts';
import { CHANGE_LISTENER_SOURCE } from './change-listener.worker.ts';
import { InProcessChanges } from './in-process-changes.ts';
import { EPOCH_CELL, LIVE_CELL, topicSlot } from './topic-counters.ts';

/**
 * Tells every process of a cluster that data behind an in-process cache changed ("directory", "wiki" …),
 * so hot paths can answer from memory without serving stale rights.
 *
 * Each process keeps one change counter per topic (TopicCounters). A cache reads the counters of its
 * topics (`counter`) on every lookup, nanoseconds, and treats everything it holds as gone when the number
 * moved; a value read from the database is stored only if the number did not move since before the read.
 * Callers use a cache only while `live` is true: then every change committed by any process reaches this one.
 * On PostgreSQL a worker thread holds a LISTEN connection and raises the counters; while it is down, `live`
 * is false, caches are bypassed and everything is read from the database again. `publish` raises the local
 * counter synchronously and, on PostgreSQL, returns only after every other listening node acknowledged the
 * change. A node acknowledges once its worker raised the counter, which the worker does within milliseconds
 * however busy the node's main thread is, so a request answered after a change never meets a stale cache
 * on another node and a write does not wait for the slowest node's request queue. A node that does not
 * acknowledge within 2 s is not waited for longer (docs/architecture.md, "Caches and what clears them"; docs/performance.md).
 */
export interface ChangeFeed {
  readonly live: boolean;
  /** Told about notifications sent and received (set by the metrics when they are on). */
  observer?: FeedObserver | undefined;
  publish(topic: string): Promise<void>;
  /**
   * `publish` for a write that announces its change itself, inside its own transaction (PostgreSQL delivers a
   * NOTIFY when its transaction commits, and drops it with a rollback): the write sends `pg_notify(channel,
   * payload)` and counts the sessions named `listener` in pg_stat_activity (the listening nodes); once
   * committed, `delivered` with that count does the rest of `publish` (this node's counter, the other nodes'
   * acknowledgements). A single node then answers without a further round trip. Undefined where it cannot (the
   * embedded database, or no listener thread now): then `publish` after the commit.
   */
  announceWithin?(topic: string): Announcement | undefined;
  /**
   * A reader of a number that moves whenever one of `topics` changes anywhere in the cluster, or this
   * process may have missed a change (its listener was lost or connected again). Reading it costs a few
   * atomic loads: caches call it on every lookup.
   */
  counter(topics: readonly string[]): () => number;
  /**
   * Runs `fn` after a change of `topic` (on PostgreSQL: on the main thread, when it gets to it). Caches
   * must not depend on it for correctness: they compare `counter` instead.
   */
  on(topic: string, fn: () => void): () => void;
  /**
   * How many nodes listen on this database, this one included (1 for an embedded database), as last counted:
   * on PostgreSQL the listener thread counts them when it connects and every few seconds. The rate limits
   * give each node its share of a limit (docs/operations.md, "Rate limits in a cluster"). Absent: 1.
   */
  readonly nodes?: number;
  close(): Promise<void>;
}

/** A change announced inside the write's transaction (ChangeFeed.announceWithin). */
export interface Announcement {
  channel: string;
  payload: string;
  listener: string;
  delivered(listeners: number): Promise<void>;
}

export interface FeedObserver {
  /** This process announced a change. */
  sent(): void;
  /** Another process's change reached this one. */
  received(): void;
  /** How long a publish waited for the other nodes' acknowledgements; `complete` false when it gave up. */
  acknowledged(seconds: number, complete: boolean): void;
}

/** One process owns the database (PGlite): local delivery is complete. */
export class LocalChangeFeed implements ChangeFeed {
  readonly live = true;
  readonly nodes = 1;
  observer: FeedObserver | undefined;
  private readonly inProcess = new InProcessChanges(false);
  on = (topic: string, fn: () => void) => this.inProcess.on(topic, fn);
  counter = (topics: readonly string[]) => this.inProcess.counter(topics);
  async publish(topic: string): Promise<void> {
    this.observer?.sent();
    this.inProcess.changed(topic);
  }
  async close(): Promise<void> {}
}

const CHANNEL = 'addon_pair_changes';
/** Marks our listener sessions in pg_stat_activity, so a publisher can count the nodes to wait for. */
const LISTENER_NAME = 'addon-pair-change-listener';
const ACK_TIMEOUT_MS = 2000;
/** The listener thread's announcement for `publish`: the change, and the nodes listening now (this one included). */
const ANNOUNCE_TEXT = 'select pg_notify($1, $2), (select count(*)::int from pg_stat_activity where application_name = $3 and datname = current_database()) as n';
/** How often the listener thread counts the listening nodes (a node that joins is counted within this time). */
const NODE_COUNT_MS = 5000;

type WorkerMessage =
  | { type: 'published'; id: number; seconds?: number; complete?: boolean }
  | { type: 'changed'; topic: string | null }
  | { type: 'nodes'; n: number }
  | { type: 'warn'; msg: string; err: string };

/**
 * The change feed of a PostgreSQL cluster. The LISTEN connection lives in a worker thread
 * (change-listener.worker.ts) that shares this process's counters: it raises them and acknowledges a
 * notification without waiting for the main thread, whose event loop may be busy with requests for a
 * while. The main thread reads the counters (caches) and asks the worker to publish.
 */
export class PgChangeFeed implements ChangeFeed {
  private readonly inProcess = new InProcessChanges(true);
  private readonly counters = this.inProcess.counters;
  private readonly waiting = new Map<number, (m: { seconds?: number; complete?: boolean }) => void>();
  private readonly nodeId = randomUUID();
  private readonly pgPath = createRequire(import.meta.url).resolve('pg');
  private worker: Worker | undefined;
  private nextId = 0;
  private closed = false;
  private restartMs = 500;
  /** `listen: 'on-publish'` and nothing published yet: the listener thread is started by the first publish. */
  private deferred: boolean;
  observer: FeedObserver | undefined;
  /** Listening nodes, as the listener thread last counted them (kept while it is down). */
  nodes = 1;

  /**
   * `listen: 'on-publish'` is for a short command-line run: it caches nothing, so it needs no listening
   * connection until it announces a change (most runs never do), and then waits for the servers'
   * acknowledgements like a server does.
   */
  constructor(
    private readonly url: string,
    private readonly log?: Logger,
    opts: { listen?: 'at-start' | 'on-publish' } = {},
  ) {
    this.deferred = opts.listen === 'on-publish';
    if (!this.deferred) this.start();
  }

  get live(): boolean {
    return this.counters.live;
  }

  on = (topic: string, fn: () => void) => this.inProcess.on(topic, fn);
  counter = (topics: readonly string[]) => this.inProcess.counter(topics);

  async publish(topic: string): Promise<void> {
    this.observer?.sent();
    this.inProcess.changed(topic);
    if (this.deferred) {
      this.deferred = false;
      this.start();
      await this.untilLive(ACK_TIMEOUT_MS);
    }
    const nonce = randomUUID();
    const worker = this.worker;
    // No listener thread (it is being restarted): still tell the others, without waiting for them.
    if (!worker) return this.notifyOnce(`c|${topic}|${nonce}|${this.nodeId}|${topicSlot(topic)}`);
    await this.untilPublished(worker, (id) => ({ type: 'publish', id, topic, slot: topicSlot(topic), nonce }));
  }

  /** Sends the listener thread `message` (numbered) and waits for its `published` answer. */
  private async untilPublished(worker: Worker, message: (id: number) => Record<string, unknown>): Promise<void> {
    const id = ++this.nextId;
    const done = new Promise<{ seconds?: number; complete?: boolean }>((resolve) => this.waiting.set(id, resolve));
    // While a publish waits for its answer the thread must keep the process alive (a short command may have
    // nothing else left to wait on).
    if (this.waiting.size === 1) worker.ref();
    worker.postMessage(message(id));
    const result = await done;
    if (result.seconds !== undefined) this.observer?.acknowledged(result.seconds, result.complete ?? false);
  }

  announceWithin(topic: string): Announcement | undefined {
    if (this.deferred || !this.worker || !this.live) return undefined;
    const nonce = randomUUID();
    return {
      channel: CHANNEL,
      payload: `c|${topic}|${nonce}|${this.nodeId}|${topicSlot(topic)}`,
      listener: LISTENER_NAME,
      delivered: async (listeners) => {
        this.observer?.sent();
        this.inProcess.changed(topic);
        const others = Math.max(0, listeners - 1);
        const worker = this.worker;
        if (others === 0 || !worker) return this.observer?.acknowledged(0, true);
        await this.untilPublished(worker, (id) => ({ type: 'await', id, nonce, missing: others }));
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.counters.live = false;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' });
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
    this.settleWaiting();
  }

  /** Waits (polling the shared flag) until the listener thread is connected, or `ms` passed. */
  private async untilLive(ms: number): Promise<void> {
    const until = performance.now() + ms;
    while (!this.live && !this.closed && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
  }

  private start(): void {
    if (this.closed) return;
    const worker = new Worker(CHANGE_LISTENER_SOURCE, {
      eval: true,
      name: 'change-listener',
      workerData: {
        url: this.url,
        pgPath: this.pgPath,
        cells: this.counters.cells,
        channel: CHANNEL,
        listenerName: LISTENER_NAME,
        announceText: ANNOUNCE_TEXT,
        nodeId: this.nodeId,
        ackTimeoutMs: ACK_TIMEOUT_MS,
        nodeCountMs: NODE_COUNT_MS,
        liveCell: LIVE_CELL,
        epochCell: EPOCH_CELL,
      },
    });
    // The server's own handles keep the process alive; a command that forgets to close must still end.
    worker.unref();
    this.worker = worker;
    worker.on('message', (m: WorkerMessage) => this.message(m));
    worker.on('error', (err) => this.log?.warn({ err }, 'change listener thread failed'));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      // Treated like a lost connection: caches off and invalid until a new listener is up.
      this.worker = undefined;
      this.counters.live = false;
      this.inProcess.changed(undefined);
      this.settleWaiting();
      if (this.closed) return;
      this.log?.warn('change listener thread ended; restarting it');
      const wait = this.restartMs;
      this.restartMs = Math.min(this.restartMs * 2, 30_000);
      setTimeout(() => this.start(), wait).unref();
    });
  }

  private message(m: WorkerMessage): void {
    if (m.type === 'published') {
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) this.worker?.unref();
    } else if (m.type === 'changed') {
      if (m.topic === null) {
        if (this.live) this.restartMs = 500; // connected again
        return this.inProcess.runCallbacks(undefined);
      }
      this.observer?.received();
      this.inProcess.runCallbacks(m.topic);
    } else if (m.type === 'nodes') {
      this.nodes = Math.max(1, m.n);
    } else if (m.type === 'warn') {
      this.log?.warn({ err: m.err }, m.msg);
    }
  }

  /** Publishes waiting for a listener thread that ended: they are answered without acknowledgements. */
  private settleWaiting(): void {
    for (const resolve of this.waiting.values()) resolve({});
    this.waiting.clear();
  }

  private async notifyOnce(payload: string): Promise<void> {
    const once = new (pgDriver().Client)({ connectionString: this.url });
    try {
      await once.connect();
      await once.query('select pg_notify($1, $2)', [CHANNEL, payload]);
    } catch (err) {
      this.log?.warn({ err }, 'could not announce a change to other nodes');
    } finally {
      await once.end().catch(() => undefined);
    }
  }
}
