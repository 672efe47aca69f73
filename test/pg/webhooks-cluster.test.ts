import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freePort, type ServerProcess } from '../helpers/server-process.ts';
import { CHEAP_HASHES, useServerCluster } from '../helpers/server-cluster.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const ADMIN = { Authorization: `Basic ${Buffer.from('admin:cluster-admin').toString('base64')}`, 'Content-Type': 'application/json' };
const FE = '/rest/trackercustomfieldeditorplugin/1';
const CHANGES = 400;
/** The dispatcher's batch (src/webhooks/webhook-dispatcher.ts): what a node killed mid-batch may have sent already. */
const BATCH = 50;

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

interface Answer {
  status: number;
  body: { id: number; schema: { customId: string }; total: number; values: { status: string }[] };
}

async function call(node: ServerProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${node.url}${path}`, { method, headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Answer['body']) : ({} as Answer['body']) };
}

// The receiver answers each delivery after a few milliseconds, so a batch is under way long enough to kill its node.
// Its port is chosen before the cluster's environment is written.
const receiver = new WebhookReceiver();
receiver.delayMs = 8;
const receiverPort = await freePort();
beforeAll(() => receiver.start(receiverPort));
afterAll(() => receiver.stop());

/**
 * Issue 28 must-hold: with two server processes on one PostgreSQL database, `kill -9` of the node delivering a
 * subscription mid-batch loses no event, and sends again at most the batch that was in flight.
 */
describe.skipIf(!onPostgres)('webhooks on two server processes sharing one PostgreSQL', () => {
  const cluster = useServerCluster({
    prefix: 'webhooks',
    env: {
      ADMIN_PASSWORD: 'cluster-admin',
      DEMO: '0',
      WEBHOOK_ALLOWLIST: `http://127.0.0.1:${receiverPort}/hooks`,
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_LEASE_MS: '2000',
      WEBHOOK_BACKOFF_MS: '100',
      ...CHEAP_HASHES,
    },
    nodes: [{}, {}],
  });

  it('kill -9 of the delivering node mid-batch: every event arrives, at most one batch twice, in order', async () => {
    const [a, b] = cluster.nodes;
    const field = await call(a, 'POST', '/rest/api/2/field', { name: 'Webhook cluster', type: 'com.atlassian.jira.plugin.system.customfieldtypes:select' });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const fieldId = Number(field.body.schema.customId);
    expect((await call(a, 'PATCH', `${FE}/admin/customfields/${fieldId}`, { user: 'admin', action: 'GRANT', type: 'GLOBAL' })).status).toBe(200);
    const hook = await call(a, 'POST', '/rest/webhooks/1.0/webhook', { name: 'c', url: `${receiver.base}/hooks/cluster`, events: ['option_created'], secret: 's' });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const batch = await call(b, 'POST', `${FE}/user/customfields/${fieldId}/contexts/default/options/batch`, {
      create: Array.from({ length: CHANGES }, (_, i) => ({ optionvalue: `v${String(i).padStart(4, '0')}` })),
    });
    expect(batch.status, JSON.stringify(batch.body).slice(0, 300)).toBe(200);
    const expected = (await query<{ id: string }>(cluster.databaseUrl, "select id from event_log where kind = 'option.created' and field_id = $1 order by id", [fieldId])).map((r) => Number(r.id));
    expect(expected).toHaveLength(CHANGES);

    // Kill whichever node delivers, in the middle of its second batch.
    await receiver.until((r) => r.length >= BATCH + BATCH / 2, 30_000);
    const [lease] = await query<{ lease_node: string | null }>(cluster.databaseUrl, 'select lease_node from webhooks where id = $1', [hook.body.id]);
    const pid = Number(lease!.lease_node!.split(':')[1]);
    const victim = [a, b].find((n) => n.child.pid === pid)!;
    expect(victim, `the lease names one of the nodes: ${lease!.lease_node}`).toBeDefined();
    victim.child.kill('SIGKILL');
    // The slow answers were for the kill to land mid-batch; the survivor's deliveries need not wait for them.
    receiver.delayMs = 0;
    const before = receiver.received.length;

    // The other node takes over once the lease expires, and sends everything.
    await receiver.until((r) => new Set(r.map((x) => x.body.eventLogId)).size >= CHANGES, 60_000);
    const ids = receiver.received.map((r) => r.body.eventLogId!);
    expect([...new Set(ids)].sort((x, y) => x - y), 'nothing lost, nothing invented').toEqual(expected);
    const duplicates = ids.length - new Set(ids).size;
    expect(duplicates, 'at most the batch in flight is sent again').toBeLessThanOrEqual(BATCH);
    // The first arrivals are in event-log order; a repeat comes only from the batch the killed node was sending.
    const firsts = ids.filter((id, i) => ids.indexOf(id) === i);
    expect(firsts).toEqual(expected);
    // The repeats, in the order they came, are one run of consecutive events: the batch in flight.
    const repeated = ids.filter((id, i) => ids.indexOf(id) < i);
    const from = expected.indexOf(repeated[0]!);
    if (repeated.length > 0) expect(repeated).toEqual(expected.slice(from, from + repeated.length));
    expect(ids.length).toBeGreaterThan(before);
    // The history: every delivery recorded as delivered once the last batch's outcomes are written.
    const survivor = a === victim ? b : a;
    let history = await call(survivor, 'GET', `/rest/webhooks/1.0/webhook/${hook.body.id}/deliveries?maxResults=1000`);
    for (let end = Date.now() + 10_000; !history.body.values.every((d) => d.status === 'delivered') && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 100));
      history = await call(survivor, 'GET', `/rest/webhooks/1.0/webhook/${hook.body.id}/deliveries?maxResults=1000`);
    }
    expect(history.body.total).toBe(CHANGES);
    expect(history.body.values.filter((d) => d.status !== 'delivered')).toEqual([]);
  }, 120_000);
});
