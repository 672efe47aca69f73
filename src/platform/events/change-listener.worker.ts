/**
 * The change listener of a PostgreSQL node, run in a worker thread of its own (see PgChangeFeed). Kept as
 * the source text of a CommonJS script started with `new Worker(source, { eval: true })`: the same string
 * works under vitest and tsx (TypeScript sources) and in the esbuild bundle (where no separate worker file
 * exists), and it needs nothing but `pg`, whose resolved path the main thread passes in `workerData`.
 *
 * Its event loop serves nothing but this connection, so however busy the main thread is with HTTP
 * requests, a notification raises the topic's counter in the shared cells and is acknowledged within
 * milliseconds. The main thread's caches compare those counters on every lookup.
 *
 * Messages to the main thread: `{ type: 'published', id, seconds?, complete? }` when a publish is done,
 * `{ type: 'changed', topic }` after another node's change (topic null: everything, after a reconnect or a
 * loss), `{ type: 'nodes', n }` with the listening nodes (this one included) when connected and every
 * `nodeCountMs`, `{ type: 'warn', msg, err }` for the log. From it: `{ type: 'publish', id, topic, slot, nonce }`,
 * `{ type: 'await', id, nonce, missing }` (a change announced inside a write's transaction: see awaitAcks)
 * and `{ type: 'close' }`.
 *
 * Notifications: `c|topic|nonce|origin|slot` announces a change, `a|nonce` acknowledges one, `b|nonce,nonce,…`
 * acknowledges several (batched per node, see queueAck). The slot is
 * last so that a node of the previous version (which reads `c|topic|nonce|origin`) still understands and
 * acknowledges it; a notification without a valid slot raises the epoch.
 */
export const CHANGE_LISTENER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const { url, cells, channel, listenerName, nodeId, ackTimeoutMs, nodeCountMs, liveCell, epochCell, announceText } = workerData;

let client;
let connected = false;
let closed = false;
let retryMs = 500;
let retryScheduled = false;
const pending = new Map();

const post = (m) => parentPort.postMessage(m);

// One statement at a time on a connection: an acknowledgement or a count can come while a publish's statement
// runs. pg 8 still queues a second query itself but warns that pg 9 will not, so each connection keeps its
// own chain (a lost connection's chain ends with its errors and does not hold up the next connection's).
// A statement with a name is prepared once per connection: planning the count of pg_stat_activity took longer
// (about 0.7 ms of the database's time) than running it, on every publish.
const tails = new WeakMap();
function queryOn(c, text, values, name) {
  const result = (tails.get(c) ?? Promise.resolve()).then(() => c.query(name ? { name, text, values } : { text, values }));
  tails.set(c, result.then(() => undefined, () => undefined));
  return result;
}
const COUNT_LISTENERS = 'select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()';
const warn = (msg, err) => post({ type: 'warn', msg, err: err instanceof Error ? err.message : String(err) });
// A warning of this thread (a deprecation of pg's, say) reaches the server's log, not only the raw stderr.
process.on('warning', (w) => warn('change listener thread: ' + w.name, w));

// A publish's acknowledgements from the other nodes, counted as they come; \`missing\` is known once its statement
// has answered (an acknowledgement can be read before that answer is handled). Acknowledgements of a change
// announced inside a write's transaction can even come before the main thread asks for them ('await'): they
// are kept for a while in \`early\`.
const early = new Map();
function acknowledge(nonce) {
  const p = pending.get(nonce);
  if (!p) return keepEarly(nonce);
  p.acked++;
  if (p.missing !== undefined && p.acked >= p.missing) p.done(true);
}
function keepEarly(nonce) {
  const now = Date.now();
  for (const [n, e] of early) if (now - e.at > ackTimeoutMs) early.delete(n);
  const e = early.get(nonce);
  if (e) e.count++;
  else early.set(nonce, { count: 1, at: now });
}

function received(payload) {
  const [kind, a, b, origin, slotText] = payload.split('|');
  if (kind === 'c' && a && b) {
    // Our own change: the main thread raised its counter before publishing, and nothing waits for it.
    if (origin === nodeId) return;
    const slot = Number(slotText);
    Atomics.add(cells, Number.isInteger(slot) && slot > epochCell && slot < cells.length ? slot : epochCell, 1);
    post({ type: 'changed', topic: a });
    queueAck(b);
  } else if (kind === 'a' && a) {
    acknowledge(a);
  } else if (kind === 'b' && a) {
    for (const nonce of a.split(',')) acknowledge(nonce);
  }
}

// Acknowledgements are batched per node: one notification acknowledges every change this node heard since its
// last one was sent (\`b|n1,n2,…\`; \`a|n\` when it is one, which nodes of the previous version read). While one is
// on its way, the next ones wait for it, so under load a node sends about one acknowledgement per round trip of
// its listener connection, however many writes the cluster makes: the notifications a write costs do not grow
// with the number of nodes (docs/performance.md, "Writes and the cluster").
const ACKS_PER_NOTIFICATION = 200; // 36-character nonces: well under PostgreSQL's 8000-byte payload
let acksDue = [];
let acksBusy = false;
function queueAck(nonce) {
  acksDue.push(nonce);
  if (acksBusy) return;
  acksBusy = true;
  // After the other notifications of the same read from the socket, which arrive in this same turn.
  setImmediate(flushAcks);
}
function flushAcks() {
  const c = client;
  if (!c || acksDue.length === 0) {
    acksBusy = false;
    acksDue = [];
    return;
  }
  const batch = acksDue.splice(0, ACKS_PER_NOTIFICATION);
  const payload = batch.length === 1 ? 'a|' + batch[0] : 'b|' + batch.join(',');
  queryOn(c, 'select pg_notify($1, $2)', [channel, payload], 'ap_ack')
    .catch(() => undefined)
    .finally(() => (acksDue.length > 0 ? flushAcks() : (acksBusy = false)));
}

async function notifyOnce(payload) {
  const once = new pg.Client({ connectionString: url });
  try {
    await once.connect();
    await once.query('select pg_notify($1, $2)', [channel, payload]);
  } catch (err) {
    warn('could not announce a change to other nodes', err);
  } finally {
    await once.end().catch(() => undefined);
  }
}

async function publish(m) {
  const payload = 'c|' + m.topic + '|' + m.nonce + '|' + nodeId + '|' + m.slot;
  const c = client;
  // Not listening (yet): still tell the others, on a connection of its own, without waiting for them.
  if (!connected || !c) {
    await notifyOnce(payload);
    return post({ type: 'published', id: m.id });
  }
  const result = { type: 'published', id: m.id };
  let timer;
  try {
    const entry = { acked: 0, missing: undefined, done: undefined };
    const acknowledged = new Promise((resolve) => {
      entry.done = resolve;
      timer = setTimeout(() => resolve(false), ackTimeoutMs);
    });
    pending.set(m.nonce, entry);
    const started = performance.now();
    // One statement (one round trip): the announcement, and the nodes listening now (this one among them), whose
    // acknowledgements the answer waits for. Alone, the answer comes with the statement's: this node's counter
    // was raised before the publish, so waiting for its own notification to come back would add a round trip
    // through the database's notification queue to every write.
    const { rows } = await queryOn(c, announceText, [channel, payload, listenerName], 'ap_notify_count');
    entry.missing = Math.max(0, (rows[0]?.n ?? 1) - 1);
    if (entry.acked >= entry.missing) entry.done(true);
    result.complete = await acknowledged;
    result.seconds = (performance.now() - started) / 1000;
  } catch (err) {
    warn('change notification failed; caches stay off until the listener reconnects', err);
    lost();
  } finally {
    clearTimeout(timer);
    pending.delete(m.nonce);
    post(result);
  }
}

// A change the main thread announced inside a write's transaction (its statement counted the listening nodes):
// answered once \`missing\` other nodes acknowledged it, or after ackTimeoutMs.
async function awaitAcks(m) {
  const started = performance.now();
  let timer;
  const entry = { acked: early.get(m.nonce)?.count ?? 0, missing: m.missing, done: undefined };
  early.delete(m.nonce);
  const acknowledged = new Promise((resolve) => {
    entry.done = resolve;
    timer = setTimeout(() => resolve(false), ackTimeoutMs);
  });
  pending.set(m.nonce, entry);
  if (entry.acked >= entry.missing) entry.done(true);
  const complete = await acknowledged;
  clearTimeout(timer);
  pending.delete(m.nonce);
  post({ type: 'published', id: m.id, complete, seconds: (performance.now() - started) / 1000 });
}

// The nodes listening now, for the rate limits' shares: counted on this connection, never on the main thread.
async function countNodes() {
  const c = client;
  if (!connected || !c) return;
  try {
    const { rows } = await queryOn(c, COUNT_LISTENERS, [listenerName], 'ap_count_listeners');
    post({ type: 'nodes', n: rows[0]?.n ?? 1 });
  } catch {
    // The connection's own error handler reports a lost connection.
  }
}
if (nodeCountMs > 0) setInterval(() => void countNodes(), nodeCountMs);

async function connect() {
  retryScheduled = false;
  if (closed) return;
  const c = new pg.Client({ connectionString: url, application_name: listenerName });
  client = c;
  c.on('notification', (msg) => received(msg.payload ?? ''));
  c.on('error', (err) => {
    warn('change listener connection failed', err);
    lost();
  });
  c.on('end', () => lost());
  try {
    await c.connect();
    await queryOn(c, 'listen ' + channel);
    // This connection commits nothing but notifications (acknowledgements, publishes after a write committed):
    // they need no wait for the disk, which would hold PostgreSQL's notification lock the longer.
    await queryOn(c, 'set synchronous_commit = off');
    if (closed) return void (await c.end());
    // Anything may have changed while we were not listening: every cached answer is invalid, then live.
    Atomics.add(cells, epochCell, 1);
    Atomics.store(cells, liveCell, 1);
    connected = true;
    retryMs = 500;
    post({ type: 'changed', topic: null });
    void countNodes();
  } catch (err) {
    warn('change listener could not connect; retrying', err);
    lost();
  }
}

function lost() {
  const wasLive = connected;
  connected = false;
  Atomics.store(cells, liveCell, 0);
  if (wasLive) {
    Atomics.add(cells, epochCell, 1);
    post({ type: 'changed', topic: null });
  }
  const c = client;
  client = undefined;
  c?.removeAllListeners('end');
  void c?.end().catch(() => undefined);
  if (closed || retryScheduled) return;
  retryScheduled = true;
  const wait = retryMs;
  retryMs = Math.min(retryMs * 2, 30000);
  setTimeout(() => void connect(), wait);
}

parentPort.on('message', (m) => {
  if (m.type === 'publish') void publish(m);
  else if (m.type === 'await') void awaitAcks(m);
  else if (m.type === 'close') {
    closed = true;
    connected = false;
    Atomics.store(cells, liveCell, 0);
    const c = client;
    client = undefined;
    void Promise.resolve(c?.end()).catch(() => undefined).finally(() => process.exit(0));
  }
});

void connect();
`;
