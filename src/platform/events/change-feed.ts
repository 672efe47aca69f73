import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../log/logger.ts';

/**
 * Tells every process of a cluster that data behind an in-process cache changed ("directory", "wiki" …),
 * so hot paths can answer from memory without serving stale rights.
 *
 * Callers use a cache only while `live` is true: then every change committed by any process reaches this one.
 * On PostgreSQL that is a LISTEN connection; while it is down, `live` is false, caches are bypassed and
 * everything is read from the database again. `publish` clears local caches synchronously and, on
 * PostgreSQL, returns only after every other listening node acknowledged the change (each clears its caches
 * before it acknowledges), so a request answered after a change never meets a stale cache on another node.
 * A node that does not acknowledge within 2 s is not waited for longer.
 */
export interface ChangeFeed {
  readonly live: boolean;
  /** Told about notifications sent and received (set by the metrics when they are on). */
  observer?: FeedObserver | undefined;
  publish(topic: string): Promise<void>;
  on(topic: string, fn: () => void): () => void;
  close(): Promise<void>;
}

export interface FeedObserver {
  /** This process announced a change. */
  sent(): void;
  /** Another process's change reached this one. */
  received(): void;
  /** How long a publish waited for the other nodes' acknowledgements; `complete` false when it gave up. */
  acknowledged(seconds: number, complete: boolean): void;
}

class Listeners {
  private readonly byTopic = new Map<string, Set<() => void>>();

  on(topic: string, fn: () => void): () => void {
    let set = this.byTopic.get(topic);
    if (!set) this.byTopic.set(topic, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  fire(topic: string | undefined): void {
    const sets = topic === undefined ? [...this.byTopic.values()] : [this.byTopic.get(topic)];
    for (const set of sets) for (const fn of set ?? []) fn();
  }
}

/** One process owns the database (PGlite): local delivery is complete. */
export class LocalChangeFeed implements ChangeFeed {
  readonly live = true;
  observer: FeedObserver | undefined;
  private readonly listeners = new Listeners();
  on = (topic: string, fn: () => void) => this.listeners.on(topic, fn);
  async publish(topic: string): Promise<void> {
    this.observer?.sent();
    this.listeners.fire(topic);
  }
  async close(): Promise<void> {}
}

const CHANNEL = 'addon_pair_changes';
/** Marks our listener sessions in pg_stat_activity, so a publisher can count the nodes to wait for. */
const LISTENER_NAME = 'addon-pair-change-listener';
const ACK_TIMEOUT_MS = 2000;

interface Pending {
  missing: number;
  done: () => void;
}

export class PgChangeFeed implements ChangeFeed {
  private client: pg.Client | undefined;
  private connected = false;
  private closed = false;
  private retryMs = 500;
  private retryScheduled = false;
  private readonly listeners = new Listeners();
  private readonly pending = new Map<string, Pending>();
  private readonly nodeId = randomUUID();
  /** `listen: 'on-publish'` and nothing published yet: the listening connection is opened by the first publish. */
  private deferred: boolean;
  observer: FeedObserver | undefined;

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
    if (!this.deferred) void this.connect();
  }

  get live(): boolean {
    return this.connected;
  }

  on = (topic: string, fn: () => void) => this.listeners.on(topic, fn);

  async publish(topic: string): Promise<void> {
    this.observer?.sent();
    this.listeners.fire(topic);
    if (this.deferred) {
      this.deferred = false;
      await this.connect();
    }
    const client = this.client;
    const nonce = randomUUID();
    const payload = `c|${topic}|${nonce}|${this.nodeId}`;
    // Not listening (yet): still tell the others, on a connection of its own, without waiting for them.
    // That is the case of a short command-line run that changes a password while servers are up.
    if (!this.connected || !client) return this.notifyOnce(payload);
    try {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()',
        [LISTENER_NAME],
      );
      const others = Math.max(0, (rows[0]?.n ?? 1) - 1);
      const acknowledged = new Promise<boolean>((resolve) => {
        this.pending.set(nonce, { missing: others + 1, done: () => resolve(true) });
        setTimeout(() => resolve(false), ACK_TIMEOUT_MS).unref();
      });
      const started = performance.now();
      await client.query('select pg_notify($1, $2)', [CHANNEL, payload]);
      const complete = await acknowledged;
      this.observer?.acknowledged((performance.now() - started) / 1000, complete);
    } catch (err) {
      this.log?.warn({ err }, 'change notification failed; caches stay off until the listener reconnects');
      this.lost();
    } finally {
      this.pending.delete(nonce);
    }
  }

  private async notifyOnce(payload: string): Promise<void> {
    const once = new pg.Client({ connectionString: this.url });
    try {
      await once.connect();
      await once.query('select pg_notify($1, $2)', [CHANNEL, payload]);
    } catch (err) {
      this.log?.warn({ err }, 'could not announce a change to other nodes');
    } finally {
      await once.end().catch(() => undefined);
    }
  }

  /** `c|topic|nonce|origin` announces a change; `a|nonce` acknowledges one. Our own change counts as one ack. */
  private received(payload: string): void {
    const [kind, a, b, origin] = payload.split('|');
    if (kind === 'c' && a && b) {
      this.listeners.fire(a);
      if (origin === this.nodeId) return this.acknowledge(b);
      this.observer?.received();
      void this.client?.query('select pg_notify($1, $2)', [CHANNEL, `a|${b}`]).catch(() => undefined);
    } else if (kind === 'a' && a) {
      this.acknowledge(a);
    }
  }

  private acknowledge(nonce: string): void {
    const p = this.pending.get(nonce);
    if (p && --p.missing <= 0) p.done();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.retryScheduled = false;
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, application_name: LISTENER_NAME });
    this.client = client;
    client.on('notification', (msg) => this.received(msg.payload ?? ''));
    client.on('error', (err) => {
      this.log?.warn({ err }, 'change listener connection failed');
      this.lost();
    });
    client.on('end', () => this.lost());
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      if (this.closed) return void (await client.end());
      // Anything may have changed while we were not listening: forget every cached answer first.
      this.listeners.fire(undefined);
      this.connected = true;
      this.retryMs = 500;
    } catch (err) {
      this.log?.warn({ err }, 'change listener could not connect; retrying');
      this.lost();
    }
  }

  private lost(): void {
    const wasLive = this.connected;
    this.connected = false;
    if (wasLive) this.listeners.fire(undefined);
    const client = this.client;
    this.client = undefined;
    client?.removeAllListeners('end');
    void client?.end().catch(() => undefined);
    if (this.closed || this.retryScheduled) return;
    this.retryScheduled = true;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
    setTimeout(() => void this.connect(), wait).unref();
  }
}
