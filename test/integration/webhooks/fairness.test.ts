import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, uniq, type TestApp } from '../../helpers/test-app.ts';
import { createField, grant, paths } from '../../helpers/tracker-fixtures.ts';
import { WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { WebhookDispatcher } from '../../../src/webhooks/webhook-dispatcher.ts';
import { WebhookSender } from '../../../src/webhooks/webhook-sender.ts';
import { OutboundAllowlist } from '../../../src/platform/http/outbound-allowlist.ts';
import { createLogger } from '../../../src/platform/log/logger.ts';

const API = '/rest/webhooks/1.0/webhook';
const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/**
 * Issue 44, finding 6: the worker claimed `order by id limit 8` whether or not a subscription had work, so the
 * ninth and later subscriptions were never delivered to. Twenty subscriptions (more than two rounds' claims),
 * three events: after a few rounds every subscription has all three, in order, once — with one worker, and (on
 * PostgreSQL, where nodes share the database) with two workers running their rounds at the same time.
 */
describe('webhooks: every subscription is served (issue 44)', () => {
  const t: TestApp = useTestApp(() => ({ WEBHOOK_ALLOWLIST: `${receiver.base}/fair`, WEBHOOK_BACKOFF_MS: '30' }));
  const admin = <R extends { set(k: string, v: string): R }>(req: R) => req.set('Authorization', t.adminAuth);

  /** `count` subscriptions to option_created, the options created, and what each subscription's receiver got. */
  async function scenario(count: number) {
    const tag = uniq('s');
    const urls: string[] = [];
    for (let i = 0; i < count; i++) {
      const url = `${receiver.base}/fair/${tag}-${i}`;
      await admin(t.http.post(API)).send({ name: `${tag} ${i}`, url, events: ['option_created'] }).expect(201);
      urls.push(url);
    }
    const field = await createField(t);
    await grant(t, field.id, { user: 'admin' });
    const values = ['first', 'second', 'third'].map((v) => `${v}-${tag}`);
    for (const optionvalue of values) await admin(t.http.post(paths(field.id, 'default').options)).send({ optionvalue }).expect(200);
    const got = () =>
      urls.map((url) =>
        receiver.received.filter((r) => `${receiver.base}${r.path}` === url).map((r) => (r.body as { option?: { optionvalue?: string } }).option?.optionvalue),
      );
    return { values, got };
  }

  it('one worker: 20 subscriptions all receive their events, in order, within a few rounds', async () => {
    const { values, got } = await scenario(20);
    // Eight claims a round: three rounds reach all twenty; two more are slack.
    for (let round = 0; round < 5; round++) await t.services.webhooks.dispatcher.runOnce();
    expect(got()).toEqual(Array.from({ length: 20 }, () => values));
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('two workers at once on PostgreSQL: every subscription served exactly once, in order', async () => {
    const { values, got } = await scenario(20);
    const sender = new WebhookSender({ allowlist: new OutboundAllowlist(t.config.webhooks.allowlist), timeoutMs: 3000 });
    const second = new WebhookDispatcher(t.services.db.knex, sender, createLogger('silent'), t.config.webhooks);
    try {
      for (let round = 0; round < 5; round++) await Promise.all([t.services.webhooks.dispatcher.runOnce(), second.runOnce()]);
    } finally {
      await second.stop();
    }
    expect(got()).toEqual(Array.from({ length: 20 }, () => values));
  });
});
