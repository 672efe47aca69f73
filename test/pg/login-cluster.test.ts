// Issue 30 on two server processes sharing one PostgreSQL: concurrent wrong guesses spread over both nodes lock
// the name exactly as the same guesses one after another (the count is taken in the database before the hash),
// a stranger's failed logins on one node never empty the other node's credential cache, and a lock earned on
// one node stops the locked name's cached credential on the other at once. Issue 44: the lock holds per name and
// client address on every node, and the failures of a name from all addresses, on both nodes, make its checks wait.
import { describe, expect, it } from 'vitest';
import { loginTopic } from '../../src/platform/auth/auth-cache.ts';
import { INLINE_DELIVERY, useServerCluster } from '../helpers/server-cluster.ts';
import type { ServerProcess } from '../helpers/server-process.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const auth = (u: string, p: string) => ({ Authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
const METRICS_TOKEN = 'login-cluster-metrics-token-0123456789';
const ADMIN = auth('admin', 'login-cluster-admin');

/** The sum of a metric's samples whose labels contain `labels`, 0 when absent. */
function metricSum(text: string, name: string, labels: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && m[1] === name && (m[2] ?? '').includes(labels)) sum += Number(m[3]);
  }
  return sum;
}

describe.skipIf(!onPostgres)('logins on two server processes on one PostgreSQL', () => {
  const cluster = useServerCluster({
    prefix: 'login_cluster',
    // Loopback is the "proxy": X-Forwarded-For names the client of a request (requests without it come from loopback).
    // At the real hash cost (no CHEAP_HASHES): concurrent guesses must meet while their hashes run.
    env: {
      ADMIN_PASSWORD: 'login-cluster-admin',
      MAX_AUTH_ATTEMPTS: '3',
      DEMO: '1',
      METRICS_TOKEN,
      TRUST_PROXY: '127.0.0.1,::1',
      LOGIN_DELAY_AFTER_FAILURES: '6',
      LOGIN_DELAY_MAX_SECONDS: '1',
      ...INLINE_DELIVERY,
    },
    nodes: [{}, {}],
  });
  const [a, b] = cluster.nodes;

  const myself = (node: ServerProcess, headers: Record<string, string>) => fetch(`${node.url}/rest/api/2/myself`, { headers });
  const basicMisses = async (node: ServerProcess) => {
    const res = await fetch(`${node.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    return metricSum(await res.text(), 'addon_pair_cache_misses_total', 'cache="auth_basic"');
  };
  const unlock = async (name: string) => {
    expect((await fetch(`${a.url}/rest/api/2/user/lockout?username=${name}`, { method: 'DELETE', headers: ADMIN })).status).toBe(204);
  };

  it("keeps the other node's cached credentials through a stranger's failed logins (no cache miss there)", async () => {
    expect((await myself(b, auth('alice', 'alice'))).status).toBe(200);
    expect((await myself(b, auth('alice', 'alice'))).status).toBe(200);
    let stranger = '';
    for (let i = 0; stranger === '' || loginTopic(stranger) === loginTopic('alice'); i++) stranger = `stranger-${i}`;
    const before = await basicMisses(b);
    // Unknown names on A: the first failure and the lock of each are announced to B (as its own name's topic).
    for (let i = 0; i < 4; i++) expect((await myself(a, auth(stranger, `x${i}`))).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await myself(b, auth('alice', 'alice'))).status).toBe(200);
    expect(await basicMisses(b)).toBe(before);
  });

  it('a lock earned on one node refuses the cached credential of that name on the other at once', async () => {
    expect((await myself(b, auth('alice', 'alice'))).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await myself(a, auth('alice', `wrong-${i}`))).status).toBe(401);
    const res = await myself(b, auth('alice', 'alice'));
    expect(res.status).toBe(401);
    expect(res.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATION_DENIED');
    await unlock('alice');
    expect((await myself(b, auth('alice', 'alice'))).status).toBe(200);
  });

  it('checks exactly MAX_AUTH_ATTEMPTS of twelve concurrent wrong guesses spread over both nodes; the right password is then refused on both', async () => {
    const reasonOf = (r: Response) => (r.status === 401 ? r.headers.get('x-seraph-loginreason') : String(r.status));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => myself(i % 2 === 0 ? a : b, auth('alice', `guess-${i}`))));
    // With the real scrypt cost on a busy machine a guess may be refused unchecked and uncounted as busy (503
    // LOGIN_BUSY, its hash would have waited over a second); every other answer is a 401.
    const reasons = answers.map(reasonOf);
    expect(reasons.every((r) => r === 'AUTHENTICATED_FAILED' || r === 'AUTHENTICATION_DENIED' || r === '503')).toBe(true);
    let checked = reasons.filter((r) => r === 'AUTHENTICATED_FAILED').length;
    expect(checked).toBeLessThanOrEqual(3);
    expect(reasons.filter((r) => r === 'AUTHENTICATION_DENIED').length).toBeGreaterThanOrEqual(12 - 3 - reasons.filter((r) => r === '503').length);
    // Guesses one after another until the name is locked: exactly three were checked in all, as one after
    // another from the start.
    for (let i = 0; checked < 3 && i < 10; i++) {
      const r = reasonOf(await myself(i % 2 === 0 ? a : b, auth('alice', `later-${i}`)));
      if (r === 'AUTHENTICATED_FAILED') checked++;
      else expect(r).toBe('503');
    }
    expect(checked).toBe(3);
    for (const node of [a, b]) {
      const right = await myself(node, auth('alice', 'alice'));
      expect(right.status).toBe(401);
      expect(right.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATION_DENIED');
    }
    await unlock('alice');
  });

  const createUser = async (name: string) => {
    const res = await fetch(`${a.url}/rest/api/2/user`, { method: 'POST', headers: { ...ADMIN, 'Content-Type': 'application/json' }, body: JSON.stringify({ name, password: `${name}-Passw0rd!` }) });
    expect(res.status).toBe(201);
    return auth(name, `${name}-Passw0rd!`);
  };
  const from = (address: string, headers: Record<string, string>) => ({ ...headers, 'X-Forwarded-For': address });

  it("locks a name for one address on both nodes when that address's guesses go to both; the owner's other addresses go on on both", async () => {
    const owner = await createUser('cl-owner');
    const X = '2001:db8:c1::7';
    const Y = '198.51.100.77';
    // The owner's credential is remembered on B for Y before the attack.
    expect((await myself(b, from(Y, owner))).status).toBe(200);
    // Three wrong guesses from X: A, B, A (the third spelled another way, and another address of the /64).
    for (const [node, address] of [[a, X], [b, '2001:DB8:C1::7'], [a, '2001:db8:c1:0:1:2:3:4']] as const) {
      expect((await myself(node, from(address, auth('cl-owner', 'wrong')))).status).toBe(401);
    }
    for (const node of [a, b]) {
      const denied = await myself(node, from(X, owner));
      expect(denied.status).toBe(401);
      expect(denied.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATION_DENIED');
    }
    // Y: the remembered credential on B, and a fresh check on A.
    for (const node of [b, a]) expect((await myself(node, from(Y, owner))).status).toBe(200);
    await unlock('cl-owner');
    expect((await myself(b, from(X, owner))).status).toBe(200);
  }, 120_000);

  it("counts a name's failures from all addresses on both nodes: past LOGIN_DELAY_AFTER_FAILURES each check waits, the right password still succeeds", async () => {
    const owner = await createUser('cl-slowed');
    // Seven wrong guesses, one from each address (none is locked), alternating nodes: past the threshold of six.
    // Two at a time, one on each node (each node checks one guess at a time, as before).
    for (let i = 0; i < 7; i += 2) {
      const pair = [i, i + 1].filter((j) => j < 7);
      const answers = await Promise.all(pair.map((j) => myself(j % 2 === 0 ? a : b, from(`192.0.2.${10 + j}`, auth('cl-slowed', 'wrong')))));
      for (const [k, res] of answers.entries()) expect(res.status, `guess ${pair[k]}`).toBe(401);
    }
    // Each further check waits (one second, the maximum here) on either node: both checked at once.
    const waits = await Promise.all(
      [a, b].map(async (node) => {
        const started = Date.now();
        await myself(node, from('192.0.2.99', auth('cl-slowed', 'wrong')));
        return Date.now() - started;
      }),
    );
    for (const [i, waited] of waits.entries()) expect(waited, `the check on node ${i === 0 ? 'A' : 'B'}`).toBeGreaterThanOrEqual(950);
    const started = Date.now();
    expect((await myself(b, from('192.0.2.100', owner))).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  }, 120_000);
});
