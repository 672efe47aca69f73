import { describe, expect, it } from 'vitest';
import { afterFailure, backoffMs, MAX_BACKOFF_MS } from '../../src/webhooks/retry-policy.ts';
import { signatureOf } from '../../src/webhooks/webhook-signer.ts';
import { eventOf, kindsOf, payloadOf, WEBHOOK_EVENTS, type LogEntry } from '../../src/webhooks/webhook-events.ts';
import { refusalOf } from '../../src/webhooks/webhook-sender.ts';
import { OutboundAllowlist } from '../../src/platform/http/outbound-allowlist.ts';

describe('webhook retries', () => {
  it('double from the first back-off, at most an hour, within ±20 % jitter', () => {
    expect(backoffMs(1, 10_000, () => 0.5)).toBe(10_000);
    expect(backoffMs(2, 10_000, () => 0.5)).toBe(20_000);
    expect(backoffMs(4, 10_000, () => 0.5)).toBe(80_000);
    expect(backoffMs(40, 10_000, () => 0.5)).toBe(MAX_BACKOFF_MS);
    expect(backoffMs(1, 10_000, () => 0)).toBe(8_000);
    expect(backoffMs(1, 10_000, () => 0.999_999)).toBe(12_000);
  });

  it('give a delivery up only after the retry period since it was produced', () => {
    const made = new Date('2026-11-27T00:00:00Z');
    expect(afterFailure(made, made.getTime() + 86_399_000, 86_400)).toBe('retry');
    expect(afterFailure(made, made.getTime() + 86_400_000, 86_400)).toBe('failed');
  });
});

describe('webhook signatures', () => {
  it('are the HMAC-SHA256 of the raw body under the secret, as docs/webhooks.md verifies with openssl', () => {
    const body = '{"webhookEvent":"test","eventLogId":null,"timestamp":1795780800000}';
    expect(signatureOf('It is a secret to everybody', body)).toBe('sha256=cc720c1d532d6345115d263971e18d61bafbbb5a064bad39e434a8ab4e0762da');
  });
});

describe('webhook events', () => {
  const entry = (kind: string, before: unknown, after: unknown): LogEntry => ({
    id: 7, time: new Date('2026-11-27T06:00:00Z'), actor: 'alice', kind, fieldId: 10000, contextId: 10100, target: { type: 'option', id: 3 }, before, after,
  });

  it('map every event name from at least one event-log kind, and a subscription to its kinds', () => {
    for (const e of WEBHOOK_EVENTS) expect(kindsOf([e]).length, e).toBeGreaterThan(0);
    expect(eventOf('option.updated')).toBe('option_renamed');
    expect(eventOf('settings.changed')).toBeUndefined();
    expect(kindsOf(['default_changed']).sort()).toEqual(['default.deleted', 'default.set']);
  });

  it('put the option after the change in `option` and before it in `before`', () => {
    expect(payloadOf(entry('option.renamed', { optionvalue: 'A' }, { optionvalue: 'B' }), 'option_renamed')).toEqual({
      webhookEvent: 'option_renamed', eventLogId: 7, changeKind: 'option.renamed', time: '2026-11-27T06:00:00.000Z', user: { name: 'alice' },
      customFieldId: 10000, contextId: 10100, target: { type: 'option', id: 3 }, option: { optionvalue: 'B' }, before: { optionvalue: 'A' },
    });
    expect(payloadOf(entry('option.created', null, { optionvalue: 'B' }), 'option_created')).not.toHaveProperty('before');
    const deleted = payloadOf(entry('option.deleted', { optionvalue: 'A', deletedIds: [3] }, null), 'option_deleted');
    expect(deleted).not.toHaveProperty('option');
    expect(deleted).toMatchObject({ before: { deletedIds: [3] }, after: null });
    expect(payloadOf(entry('grant.granted', { grouplist: [] }, { grouplist: ['g'] }), 'grants_changed')).toMatchObject({ before: { grouplist: [] }, after: { grouplist: ['g'] } });
  });
});

describe('webhook targets', () => {
  const list = new OutboundAllowlist(['http://127.0.0.1:9000/hooks', 'http://169.254.10.10/']);
  it('must be http(s), on the allowlist at a path boundary, and no unnamed link-local or metadata address', () => {
    expect(refusalOf(list, 'http://127.0.0.1:9000/hooks/a')).toBeUndefined();
    expect(refusalOf(list, 'http://127.0.0.1:9000/hooksmith')).toMatch(/not on the webhook allowlist/);
    expect(refusalOf(list, 'ftp://127.0.0.1:9000/hooks')).toMatch(/only http and https/);
    expect(refusalOf(list, 'nope')).toMatch(/not an absolute URL/);
    expect(refusalOf(list, 'http://169.254.10.10/x')).toBeUndefined(); // named by an entry
  });
});
