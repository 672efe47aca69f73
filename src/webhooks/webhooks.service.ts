import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { deliveryNotFound, urlNotAllowed, webhookNotFound } from './webhooks.errors.ts';
import type { OutboundAllowlist } from '../platform/http/outbound-allowlist.ts';
import { newestEntryId } from './event-feed.repository.ts';
import * as hooks from './webhooks.repository.ts';
import * as deliveries from './webhook-deliveries.repository.ts';
import { refusalOf, type WebhookSender } from './webhook-sender.ts';
import { testPayload } from './webhook-events.ts';
import type { WebhookBody } from './webhooks.schemas.ts';

/**
 * Subscriptions and their history (administrators only: the endpoints' guard). A target URL must be on the
 * webhook allowlist when it is saved (and is checked again at every delivery). A new subscription is told of the
 * changes made after it was created.
 */
export class WebhooksService {
  constructor(
    private readonly knex: Knex,
    private readonly sender: WebhookSender,
    private readonly allowlist: OutboundAllowlist,
    /** The allowlist's entries as configured, shown read-only to administrators. */
    private readonly listed: readonly string[] = [],
  ) {}

  /**
   * The allowlist as configured and, for a URL, whether a save would take it: the same refusal check as a
   * create or an update (refusalOf), so the form says before saving what the save would answer.
   */
  checkUrl(url: string | undefined): { allowlist: string[]; url?: { allowed: boolean; reason?: string } } {
    const allowlist = [...this.listed];
    if (url === undefined) return { allowlist };
    const reason = refusalOf(this.allowlist, url);
    return { allowlist, url: reason ? { allowed: false, reason: `The url cannot be used: ${reason}.` } : { allowed: true } };
  }

  list(): Promise<hooks.WebhookRow[]> {
    return hooks.listWebhooks(this.knex);
  }

  async get(id: number): Promise<hooks.WebhookRow> {
    return (await hooks.findWebhook(this.knex, id)) ?? Promise.reject(webhookNotFound(id));
  }

  async create(by: string, body: WebhookBody): Promise<hooks.WebhookRow> {
    const write = this.toWrite(body, null);
    return this.knex.transaction(async (trx) => hooks.insertWebhook(trx, write, by, await newestEntryId(trx)));
  }

  async update(id: number, body: WebhookBody): Promise<hooks.WebhookRow> {
    return this.knex.transaction(async (trx) => {
      const old = await hooks.findWebhook(trx, id, true);
      if (!old) throw webhookNotFound(id);
      const write = this.toWrite(body, old.secret);
      // A new target, or a subscription switched on again, gets a fresh start; its queue is kept.
      const reset = write.url !== old.url || (write.enabled && !old.enabled);
      return (await hooks.updateWebhook(trx, id, write, reset))!;
    });
  }

  async remove(id: number): Promise<void> {
    if (!(await hooks.deleteWebhook(this.knex, id))) throw webhookNotFound(id);
  }

  async deliveries(id: number, startAt: number, maxResults: number) {
    await this.get(id);
    return deliveries.pageOfDeliveries(this.knex, id, startAt, maxResults);
  }

  /**
   * Sends a delivery again now, with its identifier and body (a new `timestamp`), and records the attempt as a new
   * entry of the history (delivered or failed; not retried). The original, if still pending, keeps its place.
   */
  async redeliver(id: number, deliveryId: number): Promise<deliveries.DeliveryRow> {
    const hook = await this.get(id);
    const original = await deliveries.findDelivery(this.knex, id, deliveryId);
    if (!original) throw deliveryNotFound(id, deliveryId);
    const outcome = await this.sender.send({ url: hook.url, identifier: original.identifier, payload: JSON.stringify(original.payload), secret: hook.secret });
    return deliveries.insertAttempted(this.knex, id, { event_log_id: original.event_log_id, event: original.event, identifier: original.identifier, payload: original.payload }, outcome);
  }

  /** Sends a `test` event now and records it in the history (whatever the subscription's events and state). */
  async test(id: number, by: string): Promise<deliveries.DeliveryRow> {
    const hook = await this.get(id);
    const payload = testPayload(id, by);
    const identifier = randomUUID();
    const outcome = await this.sender.send({ url: hook.url, identifier, payload: JSON.stringify(payload), secret: hook.secret });
    return deliveries.insertAttempted(this.knex, id, { event_log_id: null, event: 'test', identifier, payload }, outcome);
  }

  private toWrite(body: WebhookBody, oldSecret: string | null): hooks.WebhookWrite {
    const refused = refusalOf(this.allowlist, body.url);
    if (refused) throw urlNotAllowed(refused);
    return {
      name: body.name,
      url: new URL(body.url).href,
      events: body.events,
      field_id: body.filters?.customFieldId ?? null,
      context_id: body.filters?.contextId ?? null,
      secret: body.secret === undefined ? oldSecret : body.secret === null || body.secret === '' ? null : body.secret,
      enabled: body.enabled,
    };
  }
}
