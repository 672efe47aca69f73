// An outbound allowlist: which URLs the server may call (OUTBOUND_ALLOWLIST for remote code-box templates,
// WEBHOOK_ALLOWLIST for webhook targets), and which addresses a resolved host may never be (link-local and cloud
// metadata services) unless an entry names them. Shared by both callers, so both apply one rule.
import { isIP } from 'node:net';

/** Hosts that answer cloud metadata requests (instance credentials). */
const METADATA_HOSTS = new Set(['169.254.169.254', 'fd00:ec2::254', 'metadata.google.internal', '100.100.100.200']);

/** `http:`/`https:` URL without credentials or fragment, in WHATWG normal form (lower-case host, no default port). */
export function normaliseUrl(url: URL): string {
  const u = new URL(url.href);
  u.username = '';
  u.password = '';
  u.hash = '';
  return u.href;
}

/** URL host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

function ipv4Parts(address: string): number[] | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped?.[1] ?? address;
  if (isIP(v4) !== 4) return undefined;
  return v4.split('.').map(Number);
}

/** Link-local (169.254.0.0/16, fe80::/10) or a metadata service address. */
export function isForbiddenAddress(address: string): boolean {
  const a = address.toLowerCase();
  if (METADATA_HOSTS.has(a)) return true;
  const v4 = ipv4Parts(a);
  if (v4) return (v4[0] === 169 && v4[1] === 254) || METADATA_HOSTS.has(v4.join('.'));
  if (isIP(a) === 6) return /^fe[89ab][0-9a-f]:/.test(a) || a === 'fd00:ec2:0:0:0:0:0:254';
  return false;
}

export class OutboundAllowlist {
  private readonly entries: { prefix: string; host: string }[] = [];
  /** Entries that are not absolute http(s) URLs; they allow nothing. */
  readonly ignored: string[] = [];

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        this.ignored.push(raw);
        continue;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        this.ignored.push(raw);
        continue;
      }
      this.entries.push({ prefix: normaliseUrl(url), host: hostOf(url) });
    }
  }

  /**
   * True when the URL starts with an entry at a boundary: `https://h/files` allows `https://h/files`,
   * `…/files/x` and `…/files?y`, but not `…/files-private`. An entry ending in `/` is a plain prefix.
   */
  allows(url: URL): boolean {
    const href = normaliseUrl(url);
    return this.entries.some(({ prefix }) => {
      if (!href.startsWith(prefix)) return false;
      if (href.length === prefix.length || prefix.endsWith('/')) return true;
      return '/?#'.includes(href.charAt(prefix.length));
    });
  }

  /** An entry names this host literally (IP literal or host name), which lifts the link-local/metadata ban. */
  namesHost(host: string): boolean {
    return this.entries.some((e) => e.host === host.toLowerCase());
  }

  /** A host that is a forbidden address or metadata name and that no entry names. */
  isBannedHost(host: string): boolean {
    return isForbiddenAddress(host) && !this.namesHost(host);
  }
}
