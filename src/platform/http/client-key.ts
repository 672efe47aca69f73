// The key a client address is counted under by every per-address limit (the rate limits, the failed logins per
// address, the login lock per name and address). An address can be written many ways (`2001:DB8:9::1`,
// `2001:0db8:9:0::1`, `::ffff:10.0.0.1` for an IPv4 peer), and one IPv6 client commonly holds a whole /64 and picks
// a new address in it at will: counted by its text, such a client would get a new count with each spelling or
// address. So an IPv4 address counts as itself, an IPv6 one as its network of CLIENT_IPV6_PREFIX bits, both in
// one canonical text (RFC 5952: lower case, no leading zeros, the longest run of zero groups as `::`).
import { isIP } from 'node:net';

/** Distinct address texts whose key is remembered; past it the memo starts again (an attacker rotating costs a parse each). */
const MEMO_SIZE = 10_000;

/** The keys of one configuration; the hot path (the rate limits, every request) asks for the same peers again and again. */
export class ClientKeys {
  private readonly memo = new Map<string, string>();

  /** `ipv6Prefix`: bits of an IPv6 address that name one client (CLIENT_IPV6_PREFIX, 1–128). */
  constructor(readonly ipv6Prefix = 64) {}

  /** The key of `address` (undefined stays undefined: no address, nothing is counted). */
  of(address: string | undefined): string | undefined {
    if (address === undefined) return undefined;
    let key = this.memo.get(address);
    if (key === undefined) {
      key = clientKeyOf(address, this.ipv6Prefix);
      if (this.memo.size >= MEMO_SIZE) this.memo.clear();
      this.memo.set(address, key);
    }
    return key;
  }
}

/**
 * The canonical key of one address: IPv4 as it is (also when it came IPv4-mapped in IPv6), IPv6 masked to `prefix`
 * bits and written as RFC 5952 text with `/prefix` (none at 128). Anything that is not an IP address is its own key.
 */
export function clientKeyOf(address: string, prefix: number): string {
  const text = address.trim();
  const version = isIP(text);
  if (version === 4) return text;
  if (version !== 6) return text;
  const groups = ipv6Groups(text);
  if (!groups) return text;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  const masked = groups.map((g, i) => {
    const bits = Math.min(16, Math.max(0, prefix - i * 16));
    return bits === 16 ? g : g & ((0xffff << (16 - bits)) & 0xffff);
  });
  return prefix >= 128 ? formatIpv6(masked) : `${formatIpv6(masked)}/${prefix}`;
}

/** The eight 16-bit groups of a valid IPv6 text (a zone `%eth0` ignored, a trailing dotted IPv4 as two groups). */
function ipv6Groups(text: string): number[] | undefined {
  const zone = text.indexOf('%');
  const bare = zone < 0 ? text : text.slice(0, zone);
  const parts = (s: string): number[] => {
    if (s === '') return [];
    const out: number[] = [];
    for (const piece of s.split(':')) {
      if (piece.includes('.')) {
        const o = piece.split('.').map(Number);
        out.push((o[0]! << 8) | o[1]!, (o[2]! << 8) | o[3]!);
      } else out.push(parseInt(piece, 16));
    }
    return out;
  };
  const gap = bare.indexOf('::');
  const head = parts(gap < 0 ? bare : bare.slice(0, gap));
  const tail = gap < 0 ? [] : parts(bare.slice(gap + 2));
  const zeros = 8 - head.length - tail.length;
  if (zeros < 0 || (gap < 0 && zeros !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(zeros).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** RFC 5952 text: lower-case hex without leading zeros; the first longest run of two or more zero groups as `::`. */
function formatIpv6(groups: number[]): string {
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}
