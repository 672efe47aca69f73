/**
 * The hidden command under which a child of the server delivers webhooks (delivery-process.ts). Its own module,
 * so the command line recognises it without loading the server.
 */
export const DELIVER_WEBHOOKS_COMMAND = 'internal-deliver-webhooks';

/** What the delivery child tells its server: an attempt's outcome (for the metrics), or that it runs. */
export type DeliveryChildMessage = { attempted: 'delivered' | 'retried' | 'failed' } | { ready: true };

/** What the server tells the child: stop after the batch under way. */
export type DeliveryParentMessage = { stop: true };
