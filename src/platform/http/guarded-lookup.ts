// Name resolution for outbound requests that refuses hosts resolving to a link-local or metadata address that no
// allowlist entry names (remote templates and webhooks). The connection is made to exactly the address checked,
// so a name cannot resolve to a safe address for the check and an unsafe one for the connection.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isForbiddenAddress, type OutboundAllowlist } from './outbound-allowlist.ts';

/** Name resolution (all addresses); tests hand in a fake to simulate names pointing at link-local addresses. */
export type Resolve = (hostname: string, family: number | undefined) => Promise<dns.LookupAddress[]>;

export const systemResolve: Resolve = (hostname, family) => dns.promises.lookup(hostname, { all: true, family: family ?? 0 });

/** Raised from inside DNS resolution so that the connection is never made. */
export class ForbiddenAddressError extends Error {}

export function guardedLookup(allowlist: OutboundAllowlist, resolve: Resolve = systemResolve): LookupFunction {
  const lookup = (hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void): void => {
    const family = typeof options.family === 'number' && options.family !== 0 ? options.family : undefined;
    resolve(hostname, family).then(
      (addresses) => {
        const bad = addresses.find((a) => isForbiddenAddress(a.address) && !allowlist.namesHost(a.address));
        if (bad) return callback(new ForbiddenAddressError(`${hostname} resolves to the link-local or metadata address ${bad.address}`));
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
        callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err),
    );
  };
  return lookup as unknown as LookupFunction;
}
