// Webhooks as a feature (platform/feature.ts): subscriptions under /rest/webhooks/1.0 (the host's JSON errors),
// the delivery worker of this node, and the delivery history's truncation with the field editor's event log.
// An add-on of the field editor: it reads the event log (event-feed.repository.ts) and is told of its deletions
// through the hook the composition root registers; the field editor never imports it.
import type { Knex } from 'knex';
import type { Feature, FeatureContext } from '../platform/feature.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { renderHostJson } from '../platform/http/renderers.ts';
import { OutboundAllowlist } from '../platform/http/outbound-allowlist.ts';
import { WebhooksService } from './webhooks.service.ts';
import { WebhookSender } from './webhook-sender.ts';
import { WebhookDispatcher } from './webhook-dispatcher.ts';
import { DeliveryProcess } from './delivery-process.ts';
import { webhookEndpoints } from './webhooks.endpoints.ts';
import { deleteSettledBefore } from './webhook-deliveries.repository.ts';

export const WEBHOOKS_API = '/rest/webhooks/1.0';

export interface Webhooks {
  webhooks: WebhooksService;
  /** This node's delivery worker (tests run rounds of it by hand). */
  dispatcher: WebhookDispatcher;
}

/** What webhooks do inside the event log's deletions: the history of the same age goes (pending deliveries stay). */
export interface WebhookHooks {
  eventLogDeleted: (trx: Knex, before: Date | undefined) => Promise<void>;
}

export function createWebhooksFeature({ config, db, log }: FeatureContext): Feature<Webhooks, WebhookHooks> {
  const allowlist = new OutboundAllowlist(config.webhooks.allowlist);
  const sender = new WebhookSender({ allowlist, timeoutMs: config.webhooks.timeoutMs });
  const webhookLog = log.child({ feature: 'webhooks' });
  const dispatcher = new WebhookDispatcher(db.knex, sender, webhookLog, config.webhooks);
  const services = { webhooks: new WebhooksService(db.knex, sender, allowlist, config.webhooks.allowlist), dispatcher };
  // On PostgreSQL a child process delivers (delivery-process.ts); its attempts reach the metrics through the
  // dispatcher here, which then only answers the lag.
  const worker =
    db.kind === 'pg' && config.webhooks.delivery === 'process'
      ? new DeliveryProcess({ nice: config.webhooks.deliveryNice, log: webhookLog, onAttempt: (o) => dispatcher.observer?.attempted(o) })
      : dispatcher;
  return {
    name: 'webhooks',
    services,
    workers: [worker],
    hooks: {
      eventLogDeleted: async (trx, before) => {
        await deleteSettledBefore(trx, before);
      },
    },
    http: () => ({
      apis: [
        {
          path: WEBHOOKS_API,
          render: renderHostJson,
          routers: [buildRouter(webhookEndpoints, { webhooks: services.webhooks, baseUrl: config.baseUrl }, { mountedAt: WEBHOOKS_API, closedPrefixes: ['/webhook'] })],
        },
      ],
    }),
  };
}
