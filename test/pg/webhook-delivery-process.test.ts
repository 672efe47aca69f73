import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess } from '../helpers/server-process.ts';
import { useServerCluster } from '../helpers/server-cluster.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const ADMIN = { Authorization: `Basic ${Buffer.from('admin:delivery-admin').toString('base64')}`, 'Content-Type': 'application/json' };
const FE = '/rest/trackercustomfieldeditorplugin/1';
const METRICS = 'delivery-child-metrics-0123456789';

/** The processes whose parent is `pid`, with their command line and niceness (from /proc). */
function childrenOf(pid: number): { pid: number; cmdline: string; nice: number }[] {
  const out: { pid: number; cmdline: string; nice: number }[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command's closing parenthesis: state is the first, ppid the second, nice the 17th.
      const fields = fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) !== pid) continue;
      out.push({ pid: Number(name), cmdline: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' '), nice: Number(fields[16]) });
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out;
}

const deliveryChildOf = (node: ServerProcess) => childrenOf(node.child.pid!).filter((c) => c.cmdline.includes('internal-deliver-webhooks'));

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function call(node: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${node.url}${path}`, { method, headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const receiver = new WebhookReceiver();
const receiverPort = await freePort();
beforeAll(() => receiver.start(receiverPort));
afterAll(() => receiver.stop());

/**
 * Issue 28: on PostgreSQL a server delivers its webhooks from a child process at a lower CPU priority
 * (src/webhooks/delivery-process.ts), so that deliveries do not slow its requests down. The child is started
 * again when it dies, goes when the server goes, and is absent with WEBHOOK_DELIVERY=inline.
 */
describe.skipIf(!onPostgres)('webhook deliveries from a child process of the server', () => {
  const cluster = useServerCluster({
    prefix: 'delivery_child',
    env: {
      ADMIN_PASSWORD: 'delivery-admin',
      DEMO: '0',
      WEBHOOK_ALLOWLIST: `http://127.0.0.1:${receiverPort}/hooks`,
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_LEASE_MS: '1000',
    },
    nodes: [{ WEBHOOK_DELIVERY_NICE: '12', METRICS_TOKEN: METRICS }, { WEBHOOK_DELIVERY: 'inline' }],
  });

  it('delivers from a child at the configured niceness, starts it again after a kill, and ends it with the server', async () => {
    const [child, inline] = cluster.nodes;
    const running = await until('the delivery child', () => deliveryChildOf(child)[0]);
    expect(running.nice).toBe(12);
    expect(deliveryChildOf(inline)).toEqual([]);
    // Only the child's node takes subscriptions: the inline node is stopped, so every delivery comes from the child.
    expect(await inline.stop()).toBe(0);

    const field = await call(child, 'POST', '/rest/api/2/field', { name: 'Delivered by a child', type: 'com.atlassian.jira.plugin.system.customfieldtypes:select' });
    const fieldId = Number((field.body.schema as { customId: string }).customId);
    expect((await call(child, 'PUT', `${FE}/admin/customfields/${fieldId}`, { userlist: ['admin'], grouplist: [] })).status).toBe(200);
    const hook = await call(child, 'POST', '/rest/webhooks/1.0/webhook', { name: 'child', url: `${receiver.base}/hooks/child`, events: ['option_created'] });
    expect(hook.status).toBe(201);
    const create = (value: string) => call(child, 'POST', `${FE}/user/customfields/${fieldId}/contexts/default/options`, { optionvalue: value });
    expect((await create('first')).status).toBe(200);
    await receiver.until((r) => r.some((x) => (x.body.option as { optionvalue?: string } | undefined)?.optionvalue === 'first'));
    // The child's attempts reach the server's metrics.
    const delivered = async () => {
      const text = await (await fetch(`${child.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS}` } })).text();
      return Number(/^addon_pair_webhook_deliveries_total\{outcome="delivered"\} (\d+)/m.exec(text)?.[1] ?? 0);
    };
    for (let end = Date.now() + 10_000; (await delivered()) < 1 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    expect(await delivered()).toBeGreaterThanOrEqual(1);

    // (The lease names the server's pid, not the child's: webhooks-cluster.test.ts finds the node to kill by it.)
    process.kill(running.pid, 'SIGKILL');
    // The server sets the child's niceness right after spawning it, so a look in between sees 0: wait for 12 (a
    // child that never gets it fails the wait).
    const next = await until('a new delivery child at niceness 12', () => deliveryChildOf(child).find((c) => c.pid !== running.pid && c.nice === 12));
    expect(next.nice).toBe(12);
    expect((await create('second')).status).toBe(200);
    await receiver.until((r) => r.some((x) => (x.body.option as { optionvalue?: string } | undefined)?.optionvalue === 'second'), 30_000);
    expect(child.output()).toContain('the webhook delivery process ended; starting it again');

    expect(await child.stop()).toBe(0);
    await until('the child to end with its server', () => (fs.existsSync(`/proc/${next.pid}`) ? undefined : true), 15_000);
  }, 120_000);
});
