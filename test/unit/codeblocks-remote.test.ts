import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeboxError } from '../../src/codeblocks/codebox/codebox-errors.ts';
import { isForbiddenAddress, OutboundAllowlist } from '../../src/platform/http/outbound-allowlist.ts';
import { RemoteTemplateFetcher } from '../../src/codeblocks/remote/remote-template.ts';

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof CodeboxError) return err.kind;
    throw err;
  }
}

describe('OutboundAllowlist', () => {
  const list = new OutboundAllowlist(['https://files.example.com/templates', 'HTTP://Other.Example:80/', 'ftp://x/', 'nonsense']);

  it('matches normalised prefixes at a path boundary', () => {
    expect(list.allows(new URL('https://files.example.com/templates'))).toBe(true);
    expect(list.allows(new URL('https://files.example.com/templates/a.txt'))).toBe(true);
    expect(list.allows(new URL('https://files.example.com/templates?v=1'))).toBe(true);
    expect(list.allows(new URL('https://FILES.example.com:443/templates/a'))).toBe(true);
    expect(list.allows(new URL('https://files.example.com/templates-private/a'))).toBe(false);
    expect(list.allows(new URL('http://files.example.com/templates/a'))).toBe(false);
    expect(list.allows(new URL('http://other.example/anything'))).toBe(true);
  });

  it('is not fooled by credentials or look-alike hosts', () => {
    expect(list.allows(new URL('http://other.example@evil.test/'))).toBe(false);
    expect(list.allows(new URL('https://files.example.com.evil.test/templates/a'))).toBe(false);
    expect(list.allows(new URL('http://user:pw@other.example/x'))).toBe(true);
  });

  it('ignores entries that are not http(s) URLs', () => {
    expect(list.ignored).toEqual(['ftp://x/', 'nonsense']);
    expect(list.allows(new URL('http://nonsense/'))).toBe(false);
  });

  it('knows link-local and metadata addresses', () => {
    for (const a of ['169.254.169.254', '169.254.0.1', '::ffff:169.254.10.1', 'fe80::1', 'FEBF::1', 'fd00:ec2::254', 'metadata.google.internal']) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
    for (const a of ['127.0.0.1', '10.0.0.1', '::1', 'fd00::1', '169.255.0.1', 'fec0::1']) expect(isForbiddenAddress(a), a).toBe(false);
  });
});

describe('RemoteTemplateFetcher', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/slow') return;
      res.end(`hello from ${req.headers.host ?? ''}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const fetcher = (entries: string[], resolveTo?: Record<string, string>, timeoutMs = 300) =>
    new RemoteTemplateFetcher({
      allowlist: new OutboundAllowlist(entries),
      timeoutMs,
      resolve: resolveTo
        ? async (host) => {
            const address = resolveTo[host];
            if (address === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
            return [{ address, family: address.includes(':') ? 6 : 4 }];
          }
        : undefined,
    });

  it('connects to exactly the address it checked (a name resolved by the guard)', async () => {
    const f = fetcher([`http://templates.test:${port}/`], { 'templates.test': '127.0.0.1' });
    expect(await f.fetch({ url: `http://templates.test:${port}/t`, user: undefined, password: undefined })).toBe(`hello from templates.test:${port}`);
  });

  it('refuses a name that resolves to a link-local or metadata address', async () => {
    const f = fetcher(['http://meta.test/'], { 'meta.test': '169.254.169.254' });
    expect(await kindOf(f.fetch({ url: 'http://meta.test/latest', user: undefined, password: undefined }))).toBe('OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED');
    const v6 = fetcher(['http://ll.test/'], { 'll.test': 'fe80::1' });
    expect(await kindOf(v6.fetch({ url: 'http://ll.test/', user: undefined, password: undefined }))).toBe('OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED');
  });

  it('lets an entry that names a metadata address explicitly through (the connection is then tried)', async () => {
    const f = fetcher(['http://169.254.169.254/'], undefined, 200);
    // Whatever the network then does (time-out, refusal, an answer), the allowlist did not stop it.
    const kind = await kindOf(f.fetch({ url: 'http://169.254.169.254/latest', user: undefined, password: undefined }));
    expect(['IO', 'HTTP', 'ok']).toContain(kind);
  });

  it('maps unknown names, refused connections and time-outs to IO', async () => {
    const f = fetcher(['http://nowhere.test/'], {});
    expect(await kindOf(f.fetch({ url: 'http://nowhere.test/', user: undefined, password: undefined }))).toBe('IO');
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = fetcher([`http://127.0.0.1:${closedPort}/`]);
    expect(await kindOf(refused.fetch({ url: `http://127.0.0.1:${closedPort}/x`, user: undefined, password: undefined }))).toBe('IO');
    const slow = fetcher([`http://127.0.0.1:${port}/`], undefined, 150);
    expect(await kindOf(slow.fetch({ url: `http://127.0.0.1:${port}/slow`, user: undefined, password: undefined }))).toBe('IO');
  });
});
