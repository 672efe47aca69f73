// A webhook receiver for tests, on 127.0.0.1: records every POST (headers, raw body), answers with the status
// the test sets (a 3xx with a Location), and can go down (the port refuses connections) and come back on the
// same port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown> & { webhookEvent: string; eventLogId: number | null; timestamp: number };
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Status of the next answers (default 200); `location` is sent with a 3xx. */
  status = 200;
  location = 'http://127.0.0.2:9/elsewhere';
  /** How long each answer waits (a slow receiver). */
  delayMs = 0;
  private server: http.Server | undefined;
  port = 0;

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(port = 0): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => setTimeout(answer, this.delayMs));
      const answer = () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (this.status >= 200 && this.status <= 299) {
          this.received.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) as Received['body'] });
        }
        res.writeHead(this.status, this.status >= 300 && this.status <= 399 ? { location: this.location } : { 'content-type': 'text/plain' });
        res.end(this.status >= 200 && this.status <= 299 ? 'thanks' : 'not now');
      };
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** The port refuses connections until `start(this.port)`. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until `predicate` holds for the received deliveries (fails after `ms`). */
  async until(predicate: (r: Received[]) => boolean, ms = 15_000): Promise<Received[]> {
    const end = Date.now() + ms;
    while (!predicate(this.received)) {
      if (Date.now() > end) throw new Error(`timed out waiting; received ${this.received.length}: ${this.received.map((r) => r.body.webhookEvent).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.received;
  }
}

/** Checks `X-Hub-Signature` as a receiver should: HMAC-SHA256 of the raw body under the secret, compared in constant time. */
export function validSignature(secret: string, r: Received): boolean {
  const header = String(r.headers['x-hub-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}
