// The webhook delivery child of a server on PostgreSQL (delivery-process.ts): the node's dispatcher on a small
// pool of its own, reporting each attempt to the server for the metrics. It ends when the server asks, and at
// once when the server is gone (its IPC channel closes): a batch cut short is sent again by whoever takes the
// lease next (at least once, never lost).
import type { Config } from '../config.ts';
import { createDb } from '../platform/db/knex.ts';
import { createLogger } from '../platform/log/logger.ts';
import { OutboundAllowlist } from '../platform/http/outbound-allowlist.ts';
import { WebhookSender } from './webhook-sender.ts';
import { WebhookDispatcher } from './webhook-dispatcher.ts';
import { SERVER_PID_VARIABLE } from './delivery-process.ts';
import type { DeliveryChildMessage, DeliveryParentMessage } from './delivery-command.ts';

/** Connections of the child's pool: a claim transaction and a batch's reads and writes at a time. */
const POOL_MAX = 3;

export async function runDeliveryChild(config: Config): Promise<void> {
  if (!config.databaseUrl || !process.send) throw new Error('the webhook delivery process is started by a server on PostgreSQL');
  const tell = (m: DeliveryChildMessage) => void process.send?.(m, undefined, {}, () => undefined);
  // The server is gone (killed or crashed): stop now, whatever is under way.
  process.once('disconnect', () => process.exit(0));
  // Ctrl-C in a terminal reaches the whole process group: the server decides when this process stops.
  process.on('SIGINT', () => undefined);
  const log = createLogger(config.logLevel).child({ feature: 'webhooks', process: 'deliveries' });
  const db = createDb({ databaseUrl: config.databaseUrl, poolMax: POOL_MAX, log, listenForChanges: 'on-publish' });
  const sender = new WebhookSender({ allowlist: new OutboundAllowlist(config.webhooks.allowlist), timeoutMs: config.webhooks.timeoutMs });
  const serverPid = Number(process.env[SERVER_PID_VARIABLE]) || process.pid;
  const dispatcher = new WebhookDispatcher(db.knex, sender, log, config.webhooks, serverPid);
  dispatcher.observer = { attempted: (outcome) => tell({ attempted: outcome }) };
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await dispatcher.stop();
      await db.close();
      process.exit(0);
    })());
  process.on('message', (m: DeliveryParentMessage) => void (m.stop && stop()));
  process.once('SIGTERM', () => void stop());
  dispatcher.start();
  tell({ ready: true });
}
