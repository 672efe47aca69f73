// The address a request comes from, for the limits that count per client (rate limits, failed logins per
// address). Without TRUST_PROXY it is the socket's peer. With it, and only for a request whose peer is one of the
// named proxies, `X-Forwarded-For` is read from its right end: the first address that is not a trusted proxy
// is the client (a client can put anything at the left end, so only what the trusted proxies appended counts).
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { RequestStep } from './pipeline.ts';

declare module 'http' {
  interface IncomingMessage {
    /** The client's address as the trusted proxies report it (set only when TRUST_PROXY applies to the request). */
    clientAddress?: string;
  }
}

/** The client address of a request: the trusted proxies' word when the step below set it, else the socket's peer. */
export function clientAddress(req: IncomingMessage): string | undefined {
  return req.clientAddress ?? req.socket?.remoteAddress;
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) as `10.0.0.1`, so IPv4 entries match it. */
function plain(address: string): string {
  return address.length > 7 && address.charCodeAt(0) === 58 /* ':' */ && address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4
    ? address.slice(7)
    : address;
}

/**
 * One entry of TRUST_PROXY: an address (`10.0.0.5`, `::1`) or a CIDR block (`10.0.0.0/8`, `fd00::/8`). Answers
 * an error text for a bad entry, for the configuration's message.
 */
export function parseTrustEntry(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | string {
  const [address = '', prefixText, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return `"${entry}" is not an IP address or a CIDR block`;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return `"${entry}" has a prefix length outside 0-${max}`;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The proxies of TRUST_PROXY, as a set of addresses that answers "is this one of them?". */
export class TrustedProxies {
  private readonly list = new BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const parsed = parseTrustEntry(entry);
      if (typeof parsed === 'string') throw new Error(`TRUST_PROXY: ${parsed}`);
      this.list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
  }

  has(address: string): boolean {
    const a = plain(address);
    const version = isIP(a);
    return version !== 0 && this.list.check(a, version === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The client of a request whose peer is `peer`: the peer itself unless it is trusted; then the right-most
   * address of `X-Forwarded-For` that is not trusted (or the left-most, when all are). A malformed entry ends
   * the walk there: what lies left of it cannot be told apart from what the client wrote.
   */
  clientOf(peer: string | undefined, forwardedFor: string | string[] | undefined): string | undefined {
    if (peer === undefined || forwardedFor === undefined || !this.has(peer)) return peer;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(hops[i]!.trim());
      if (isIP(hop) === 0) break;
      client = hop;
      if (!this.has(hop)) break;
    }
    return client;
  }
}

/**
 * The pipeline step that reads `X-Forwarded-For` from trusted proxies (added only when TRUST_PROXY names some):
 * first of the API steps, so authentication (failed logins per address) and the rate limits see the client.
 */
export function trustedProxyStep(proxies: TrustedProxies): RequestStep {
  return {
    name: 'trusted-proxy',
    run(req, _res, next) {
      const peer = req.socket?.remoteAddress;
      const client = proxies.clientOf(peer, req.headers['x-forwarded-for']);
      if (client !== peer) req.clientAddress = client;
      next();
    },
  };
}
