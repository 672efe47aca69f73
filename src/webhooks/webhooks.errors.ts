// The error registry of the webhooks API (/rest/webhooks/1.0, rendered by renderHostJson as
// `{errorMessages, errors}` like the tracker host's). Validation and access errors come from the platform.
import { AppError } from '../platform/http/app-error.ts';

export const webhookNotFound = (id: number) => new AppError(404, 'WEBHOOK_NOT_FOUND', `No webhook with id ${id}.`);

export const deliveryNotFound = (id: number, deliveryId: number) =>
  new AppError(404, 'DELIVERY_NOT_FOUND', `No delivery with id ${deliveryId} for webhook ${id}.`);

/** 400 naming `url`: not an http(s) URL, not on the webhook allowlist, or a link-local or metadata address. */
export const urlNotAllowed = (reason: string) =>
  new AppError(400, 'WEBHOOK_URL_NOT_ALLOWED', 'The url cannot be used.', { details: [{ name: 'url', message: `The url cannot be used: ${reason}.` }] });
