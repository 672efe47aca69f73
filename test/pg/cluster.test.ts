import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { CHEAP_HASHES, INLINE_DELIVERY, useServerCluster } from '../helpers/server-cluster.ts';
import { createEmptyPgDatabase } from '../helpers/test-db.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const auth = (u: string, p: string) => ({ Authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });

/** An empty database of its own (not the migrated template): these tests start real server processes on it. */
const emptyDatabase = () => createEmptyPgDatabase('cluster');

const METRICS_TOKEN = 'cluster-test-metrics-token-0123456789';

/** The sum of a metric's samples (all label sets) in a scrape, 0 when absent. */
function metricSum(text: string, name: string, labels = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && m[1] === name && (m[2] ?? '').includes(labels)) sum += Number(m[3]);
  }
  return sum;
}

describe.skipIf(!onPostgres)('two server processes on one PostgreSQL', () => {
  const cluster = useServerCluster({
    prefix: 'cluster',
    // Caches and locks across nodes are the subject here, not the cost of a hash nor webhook deliveries.
    env: { ADMIN_PASSWORD: 'cluster-admin', MAX_AUTH_ATTEMPTS: '3', DEMO: '1', METRICS_TOKEN, ...CHEAP_HASHES, ...INLINE_DELIVERY },
    nodes: [{}, {}],
    // Both start at the same moment on an empty database: migrations, first admin and demo must happen once.
    start: 'together',
  });
  const [a, b] = cluster.nodes;

  it('migrated and seeded once although both started together', async () => {
    const c = new pg.Client({ connectionString: cluster.databaseUrl });
    await c.connect();
    try {
      const users = await c.query<{ name: string }>('select name from users order by name');
      expect(users.rows.map((r) => r.name)).toEqual(['admin', 'alice']);
      const batches = await c.query<{ n: number }>('select count(distinct batch)::int as n from knex_migrations');
      expect(batches.rows[0]!.n).toBe(1);
    } finally {
      await c.end();
    }
  });

  it('a lock earned on one node holds on the other until an administrator resets it', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${a.url}/rest/api/2/myself`, { headers: auth('alice', 'wrong') });
      expect(res.status).toBe(401);
    }
    const onB = await fetch(`${b.url}/rest/api/2/myself`, { headers: auth('alice', 'alice') });
    expect(onB.status).toBe(401);
    expect(onB.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATION_DENIED');
    const reset = await fetch(`${a.url}/rest/api/2/user/lockout?username=alice`, { method: 'DELETE', headers: auth('admin', 'cluster-admin') });
    expect(reset.status).toBe(204);
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: auth('alice', 'alice') })).status).toBe(200);
  });

  it('failures counted on both nodes add up', async () => {
    await fetch(`${a.url}/rest/api/2/myself`, { headers: auth('alice', 'wrong') });
    await fetch(`${b.url}/rest/api/2/myself`, { headers: auth('alice', 'wrong') });
    await fetch(`${a.url}/rest/api/2/myself`, { headers: auth('alice', 'wrong') });
    const res = await fetch(`${b.url}/rest/api/2/myself`, { headers: auth('alice', 'alice') });
    expect(res.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATION_DENIED');
    await fetch(`${a.url}/rest/api/2/user/lockout?username=alice`, { method: 'DELETE', headers: auth('admin', 'cluster-admin') });
  });

  it('a password changed on one node stops the old one on the other at once (no stale credential cache)', async () => {
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: auth('alice', 'alice') })).status).toBe(200);
    const put = await fetch(`${a.url}/rest/api/2/user/password?username=alice`, {
      method: 'PUT',
      headers: { ...auth('admin', 'cluster-admin'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ password: 'changed' }),
    });
    expect(put.status).toBe(204);
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: auth('alice', 'alice') })).status).toBe(401);
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: auth('alice', 'changed') })).status).toBe(200);
  });

  it('a group membership changed on one node shows on the other at once', async () => {
    const groupsOn = async (url: string) =>
      ((await (await fetch(`${url}/rest/api/2/myself`, { headers: auth('alice', 'changed') })).json()) as { groups: { items: { name: string }[] } }).groups.items.map(
        (g) => g.name,
      );
    expect(await groupsOn(b.url)).not.toContain('administrators');
    const add = await fetch(`${a.url}/rest/api/2/group/user?groupname=administrators`, {
      method: 'POST',
      headers: { ...auth('admin', 'cluster-admin'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'alice' }),
    });
    expect(add.status).toBe(201);
    expect(await groupsOn(b.url)).toContain('administrators');
    // and the new right works on B at once
    expect((await fetch(`${b.url}/rest/api/2/user?username=admin`, { headers: auth('alice', 'changed') })).status).toBe(200);
  });

  it('a read restriction set on one node stops downloads on the other at once (no stale view cache)', async () => {
    const e1 = `/rest/advancedcodeblocks/1/download_code/plain_text?key=cmF3&macroId=5f3c2a4e-1d2b-4c6a-9e8f-000000001001&contentId=1001`;
    const dana = auth('alice', 'changed');
    expect((await fetch(`${b.url}${e1}`, { headers: dana })).status).toBe(200);
    const put = await fetch(`${a.url}/rest/api/content/1001/restriction`, {
      method: 'PUT',
      headers: { ...auth('admin', 'cluster-admin'), 'Content-Type': 'application/json' },
      body: JSON.stringify([{ operation: 'read', restrictions: { user: [{ type: 'known', username: 'admin' }], group: [] } }]),
    });
    expect(put.status).toBe(200);
    expect((await fetch(`${b.url}${e1}`, { headers: dana })).status).toBe(403);
  });

  it('counts change notifications sent by one node and received by the other, and the acknowledgement wait (metrics)', async () => {
    const scrape = async (node: ServerProcess) => {
      const res = await fetch(`${node.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(200);
      return res.text();
    };
    const admin = { ...auth('admin', 'cluster-admin'), 'Content-Type': 'application/json' };
    const group = `metrics-${randomBytes(3).toString('hex')}`;
    expect((await fetch(`${a.url}/rest/api/2/group`, { method: 'POST', headers: admin, body: JSON.stringify({ name: group }) })).status).toBe(201);
    const [a0, b0] = [await scrape(a), await scrape(b)];
    // A membership change is announced (it changes what the credential caches hold).
    const res = await fetch(`${a.url}/rest/api/2/group/user?groupname=${group}`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'alice' }) });
    expect(res.status).toBe(201);
    const [a1, b1] = [await scrape(a), await scrape(b)];
    expect(metricSum(a1, 'addon_pair_change_feed_sent_total')).toBeGreaterThan(metricSum(a0, 'addon_pair_change_feed_sent_total'));
    expect(metricSum(b1, 'addon_pair_change_feed_received_total')).toBeGreaterThan(metricSum(b0, 'addon_pair_change_feed_received_total'));
    // A waited for B's acknowledgement before it answered, and B acknowledged (not a time-out).
    const acked = (text: string) => metricSum(text, 'addon_pair_change_feed_ack_wait_seconds_count', 'outcome="acknowledged"');
    expect(acked(a1)).toBeGreaterThan(acked(a0));
    for (const text of [a1, b1]) expect(metricSum(text, 'addon_pair_change_feed_listener_up')).toBe(1);
  });

  it('a token revoked on one node stops on the other at once', async () => {
    const created = await fetch(`${a.url}/rest/pat/latest/tokens`, {
      method: 'POST',
      headers: { ...auth('admin', 'cluster-admin'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    const { id, rawToken } = (await created.json()) as { id: number; rawToken: string };
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: { Authorization: `Bearer ${rawToken}` } })).status).toBe(200);
    await fetch(`${a.url}/rest/pat/latest/tokens/${id}`, { method: 'DELETE', headers: auth('admin', 'cluster-admin') });
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: { Authorization: `Bearer ${rawToken}` } })).status).toBe(401);
  });
});

describe.skipIf(!onPostgres)('start-up on PostgreSQL', () => {
  it('stops with a clear message when the directory is empty and ADMIN_PASSWORD is not set', async () => {
    const db = await emptyDatabase();
    try {
      await expect(startServerProcess({ DATABASE_URL: db.url })).rejects.toThrow(/ADMIN_PASSWORD/);
    } finally {
      await db.drop();
    }
  });
});
