import type { z } from 'zod';
import type { WebhookRow } from './webhooks.repository.ts';
import type { DeliveryRow } from './webhook-deliveries.repository.ts';
import type { deliveryJson, webhookJson } from './webhooks.schemas.ts';

export const WEBHOOKS_PATH = '/rest/webhooks/1.0/webhook';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function presentWebhook(row: WebhookRow, baseUrl: string): z.output<typeof webhookJson> {
  return {
    id: row.id,
    self: `${baseUrl}${WEBHOOKS_PATH}/${row.id}`,
    name: row.name,
    url: row.url,
    events: row.events,
    filters: { customFieldId: row.field_id, contextId: row.context_id },
    hasSecret: row.secret !== null,
    enabled: row.enabled,
    status: row.status,
    createdBy: row.created_by,
    created: iso(row.created_at)!,
    updated: iso(row.updated_at)!,
  };
}

export function presentDelivery(row: DeliveryRow): z.output<typeof deliveryJson> {
  return {
    id: row.id,
    identifier: row.identifier,
    webhookEvent: row.event,
    eventLogId: row.event_log_id,
    status: row.status,
    attempts: row.attempts,
    created: iso(row.created_at)!,
    lastAttempt: iso(row.last_attempt_at),
    nextAttempt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    delivered: iso(row.delivered_at),
    responseStatus: row.response_status,
    durationMs: row.duration_ms,
    responseBody: row.response_body,
    error: row.error,
  };
}
