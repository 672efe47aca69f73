/** The parts of a pooled node-postgres client used here (`connection.stream` is its socket). */
export interface PgClientLike {
  pipeline?: boolean;
  processID?: number;
  connection: { stream: { cork(): void; uncork(): void } };
  query(config: unknown, values?: unknown, callback?: (err: Error | null, result?: unknown) => void): unknown;
}
type Callback = (err: Error | null, result?: unknown) => void;

const textOf = (config: unknown) => (typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text);
/** knex's statements that open and close a transaction (execution/transaction.js). */
const isBegin = (text: unknown) => text === 'BEGIN;';
const isCommit = (text: unknown) => text === 'COMMIT;';

/**
 * A pipelined PostgreSQL connection as one transaction of knex sees it, so that the transaction's statements
 * leave in as few writes to the socket as possible (each write is a system call; on a small VM, 0.15–0.2 ms of
 * the server's time):
 * - knex's `BEGIN` is not sent alone and waited for: it is answered at once and goes out in front of the
 *   transaction's first statement, in the same write (the database answers the BEGIN first, so an error of it
 *   still fails that statement's transaction; a BEGIN cannot fail on a fresh connection anyway);
 * - `together` sends several statements in one write (the socket is corked while they are handed over);
 * - `commitWith` sends a statement and the COMMIT in one write; knex's own `COMMIT` that follows is then
 *   answered with that COMMIT's answer instead of being sent again.
 * Everything else passes through to the client unchanged, in order. A transaction that ends before it sent
 * anything (a refusal before its first statement) sends nothing: its `ROLLBACK` is answered here too.
 */
export class FlightConnection {
  private beginDeferred = false;
  private sentAnything = false;
  private commit: Promise<unknown> | undefined;

  constructor(readonly client: PgClientLike) {}

  /** Read by send-now.ts: statements leave at once, without waiting for earlier answers. */
  get pipeline(): boolean {
    return this.client.pipeline === true;
  }

  /** Used by knex to cancel a statement that ran past its timeout. */
  get processID(): number | undefined {
    return this.client.processID;
  }

  /** node-postgres's `query`, in either of its forms (promise, or callback as knex calls it). */
  query(config: unknown, values?: unknown, callback?: Callback): unknown {
    const text = textOf(config);
    const cb = typeof values === 'function' ? (values as Callback) : callback;
    if (isBegin(text) && !this.sentAnything) {
      this.beginDeferred = true;
      return answerNow(cb, { command: 'BEGIN', rows: [] });
    }
    if (isCommit(text) && this.commit) return settle(this.commit, cb);
    if (/^ROLLBACK\b/i.test(String(text)) && !this.sentAnything) {
      this.beginDeferred = false;
      return answerNow(cb, { command: 'ROLLBACK', rows: [] });
    }
    return this.together(() => {
      this.sendDeferredBegin();
      return this.client.query(config, values, callback);
    });
  }

  /** Runs `send` (which hands statements to this connection) with the socket corked: one write for them all. */
  together<T>(send: () => T): T {
    const stream = this.client.connection.stream;
    stream.cork();
    try {
      this.sendDeferredBegin();
      return send();
    } finally {
      stream.uncork();
    }
  }

  /**
   * Sends `statements` and COMMIT in one write; answers each statement's rows and the COMMIT's answer. Should a
   * statement fail, the database answers the COMMIT as a rollback (a failed transaction cannot commit).
   */
  commitWith<S>(statements: readonly S[], send: (s: S) => Promise<unknown[]>): { rows: Promise<unknown[]>[]; committed: Promise<unknown> } {
    return this.together(() => {
      const rows = statements.map(send);
      const committed = this.client.query('COMMIT;') as Promise<unknown>;
      committed.catch(() => undefined); // awaited by the caller (and by knex's own COMMIT, answered from it)
      this.commit = committed;
      return { rows, committed };
    });
  }

  private sendDeferredBegin(): void {
    this.sentAnything = true;
    if (!this.beginDeferred) return;
    this.beginDeferred = false;
    const begun = this.client.query('BEGIN;') as Promise<unknown>;
    // Its failure (there is none on a connection between transactions) fails the statements sent behind it.
    begun.catch(() => undefined);
  }
}

function answerNow(cb: Callback | undefined, result: unknown): unknown {
  if (!cb) return Promise.resolve(result);
  queueMicrotask(() => cb(null, result));
  return undefined;
}

function settle(answer: Promise<unknown>, cb: Callback | undefined): unknown {
  if (!cb) return answer;
  answer.then(
    (r) => cb(null, r),
    (e: unknown) => cb(e as Error),
  );
  return undefined;
}
