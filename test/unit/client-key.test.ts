// Issue 44 (finding 7): every per-address count keys a client by one canonical text, IPv6 by its network.
import { describe, expect, it } from 'vitest';
import { ClientKeys, clientKeyOf } from '../../src/platform/http/client-key.ts';

describe('client keys', () => {
  it('writes one IPv6 address the same way however it was spelled (RFC 5952), masked to the prefix', () => {
    const spellings = ['2001:db8:9::1', '2001:DB8:9::1', '2001:0db8:9:0::1', '2001:0DB8:0009:0000:0000:0000:0000:0001', '2001:db8:9::1%eth0'];
    expect(new Set(spellings.map((a) => clientKeyOf(a, 128)))).toEqual(new Set(['2001:db8:9::1']));
    expect(new Set(spellings.map((a) => clientKeyOf(a, 64)))).toEqual(new Set(['2001:db8:9::/64']));
  });

  it('counts every address of a /64 as one client, and the next /64 as another', () => {
    const keys = new ClientKeys(64);
    const rotated = Array.from({ length: 40 }, (_, i) => keys.of(`2001:db8:7:1:${i.toString(16)}:ab:cd:${(i * 7).toString(16)}`));
    expect(new Set(rotated)).toEqual(new Set(['2001:db8:7:1::/64']));
    expect(keys.of('2001:db8:7:2::1')).toBe('2001:db8:7:2::/64');
    expect(new ClientKeys(48).of('2001:db8:7:2::1')).toBe('2001:db8:7::/48');
    expect(new ClientKeys(60).of('2001:db8:7:1f::1')).toBe('2001:db8:7:10::/60');
  });

  it('keeps IPv4 as it is, also when it comes mapped into IPv6, and leaves anything else alone', () => {
    expect(clientKeyOf('10.0.0.1', 64)).toBe('10.0.0.1');
    expect(clientKeyOf('::ffff:10.0.0.1', 64)).toBe('10.0.0.1');
    expect(clientKeyOf('::FFFF:0a00:0001', 64)).toBe('10.0.0.1');
    expect(clientKeyOf('token:17', 64)).toBe('token:17');
    expect(new ClientKeys().of(undefined)).toBeUndefined();
  });

  it('compresses the longest run of zero groups only, the first of equal runs', () => {
    expect(clientKeyOf('1:0:0:1:0:0:0:1', 128)).toBe('1:0:0:1::1');
    expect(clientKeyOf('1:0:0:1:0:0:1:1', 128)).toBe('1::1:0:0:1:1');
    expect(clientKeyOf('1:2:3:4:5:6:0:8', 128)).toBe('1:2:3:4:5:6:0:8');
    expect(clientKeyOf('::', 128)).toBe('::');
  });
});
