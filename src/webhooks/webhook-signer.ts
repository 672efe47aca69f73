import { createHmac } from 'node:crypto';

/**
 * `X-Hub-Signature: sha256=<hex>`: HMAC-SHA256 of the raw body bytes under the subscription's secret, as GitHub
 * signs. The attempt's `timestamp` is inside the body, so it is signed too and a receiver can refuse replays.
 */
export function signatureOf(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
