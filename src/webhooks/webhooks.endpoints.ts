// Webhook subscriptions under /rest/webhooks/1.0/webhook (the tracker host's conventions), administrators only,
// each endpoint declared once (docs/openapi.md). Errors are the host's JSON bodies. See docs/webhooks.md.
import { z } from 'zod';
import { currentUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { empty, json } from '../platform/openapi/operation.ts';
import type { WebhooksService } from './webhooks.service.ts';
import { presentDelivery, presentWebhook, WEBHOOKS_PATH } from './webhooks.presenter.ts';
import { deliveriesPage, deliveriesQuery, deliveryJson, deliveryParams, webhookBody, webhookJson, webhookParams } from './webhooks.schemas.ts';
import { allowlistAnswer, allowlistQuery } from './webhooks.schemas.ts';

export interface WebhooksDeps {
  webhooks: WebhooksService;
  baseUrl: string;
}

const TAG = 'Webhooks';
const ONE = `${WEBHOOKS_PATH}/{id}`;
/** Outside `/webhook` (a closed prefix): the configuration read is not one of the subscriptions. */
const ALLOWLIST_PATH = '/rest/webhooks/1.0/allowlist';

export const webhookEndpoints: Endpoint<WebhooksDeps>[] = [
  {
    method: 'get', path: WEBHOOKS_PATH, tag: TAG, access: 'admin', summary: 'The webhook subscriptions (secrets are never shown)',
    responses: { 200: json(z.array(webhookJson), 'Every subscription, oldest first') },
    handle: async (_req, res, { webhooks, baseUrl }) => {
      res.json((await webhooks.list()).map((w) => presentWebhook(w, baseUrl)));
    },
  },
  {
    method: 'post', path: WEBHOOKS_PATH, tag: TAG, access: 'admin', summary: 'Subscribe a URL on the webhook allowlist to events',
    body: webhookBody, responses: { 201: json(webhookJson, 'The subscription, with its id and self') }, errors: [400],
    handle: async (req, res, { webhooks, baseUrl }) => {
      const body = parseWith(webhookBody, req.body, 'body');
      const row = await webhooks.create(currentUser(req).name, body);
      const answer = presentWebhook(row, baseUrl);
      res.status(201).location(answer.self).json(answer);
    },
  },
  {
    method: 'get', path: ALLOWLIST_PATH, tag: TAG, access: 'admin', summary: 'The webhook allowlist as configured, and whether a url would be accepted',
    query: allowlistQuery, responses: { 200: json(allowlistAnswer, 'The entries; with `url`, the check a save would make') }, errors: [400],
    handle: async (req, res, { webhooks }) => {
      const { url } = parseWith(allowlistQuery, req.query, 'query');
      res.json(webhooks.checkUrl(url));
    },
  },
  {
    method: 'get', path: ONE, tag: TAG, access: 'admin', summary: 'One subscription and its status (ok, or failing after a delivery was given up)', params: webhookParams,
    responses: { 200: json(webhookJson, 'The subscription') }, errors: [400, 404],
    handle: async (req, res, { webhooks, baseUrl }) => {
      const { id } = parseWith(webhookParams, req.params);
      res.json(presentWebhook(await webhooks.get(id), baseUrl));
    },
  },
  {
    method: 'put', path: ONE, tag: TAG, access: 'admin', summary: 'Replace a subscription (an absent secret keeps the current one; null removes it)', params: webhookParams,
    body: webhookBody, responses: { 200: json(webhookJson, 'The subscription as saved') }, errors: [400, 404],
    handle: async (req, res, { webhooks, baseUrl }) => {
      const { id } = parseWith(webhookParams, req.params);
      const body = parseWith(webhookBody, req.body, 'body');
      res.json(presentWebhook(await webhooks.update(id, body), baseUrl));
    },
  },
  {
    method: 'delete', path: ONE, tag: TAG, access: 'admin', summary: 'Delete a subscription with its queue and history', params: webhookParams,
    responses: { 204: empty('Deleted; nothing more is sent') }, errors: [400, 404],
    handle: async (req, res, { webhooks }) => {
      const { id } = parseWith(webhookParams, req.params);
      await webhooks.remove(id);
      res.status(204).end();
    },
  },
  {
    method: 'get', path: `${ONE}/deliveries`, tag: TAG, access: 'admin', summary: "A subscription's deliveries, newest first", params: webhookParams, query: deliveriesQuery,
    responses: { 200: json(deliveriesPage, 'One page (startAt, maxResults, total, isLast, values)') }, errors: [400, 404],
    handle: async (req, res, { webhooks }) => {
      const { id } = parseWith(webhookParams, req.params);
      const { startAt, maxResults } = parseWith(deliveriesQuery, req.query, 'query');
      const { total, rows } = await webhooks.deliveries(id, startAt, maxResults);
      res.json({ startAt, maxResults, total, isLast: startAt + rows.length >= total, values: rows.map(presentDelivery) });
    },
  },
  {
    method: 'post', path: `${ONE}/deliveries/{deliveryId}/redeliver`, tag: TAG, access: 'admin', summary: 'Send a delivery again now (same identifier and body, a new timestamp)',
    params: deliveryParams, bodyOptional: true, responses: { 200: json(deliveryJson, 'The new attempt, recorded in the history (delivered or failed)') }, errors: [400, 404],
    handle: async (req, res, { webhooks }) => {
      const { id, deliveryId } = parseWith(deliveryParams, req.params);
      res.json(presentDelivery(await webhooks.redeliver(id, deliveryId)));
    },
  },
  {
    method: 'post', path: `${ONE}/test`, tag: TAG, access: 'admin', summary: 'Send a test event now', params: webhookParams, bodyOptional: true,
    responses: { 200: json(deliveryJson, 'The attempt, recorded in the history (delivered or failed)') }, errors: [400, 404],
    handle: async (req, res, { webhooks }) => {
      const { id } = parseWith(webhookParams, req.params);
      res.json(presentDelivery(await webhooks.test(id, currentUser(req).name)));
    },
  },
];
