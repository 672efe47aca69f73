// Every download link of both lists, fetched by a real HTTP client that follows redirects, returns the
// block's text: the XML list's servlet links (301 to E1) and the JSON list's /code links, under a context path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { WikiFixtures } from '../../helpers/wiki-fixtures.ts';
import { fields, parseXml } from './support.ts';

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('download links followed by a redirect-following client', () => {
  let server: http.Server;
  let port: number;
  let base: string;
  let user: TestUser;
  let contentId: number;
  let macroId: string;

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}/wiki`;
  });
  // Created once the port of its absolute links is known.
  const t = useTestApp(() => ({ BASE_URL: base }));
  beforeAll(async () => {
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const fx = new WikiFixtures(t);
    user = await t.createUser('link-reader', { groups: ['link-team'] });
    const space = await fx.space('LINK', { groups: ['link-team'] });
    contentId = await fx.content({ space });
    macroId = await fx.codebox(contentId, 'advanced-codeblock-macro', '[alpha one]\nv = 1\n[bëta/+]\nv = 2\n[content]\nvalue ${v} & more\n');
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (url: string) => fetch(url, { headers: { authorization: user.auth }, redirect: 'follow' });
  const expected: Record<string, string> = { 'alpha one': 'value 1 & more\n', 'bëta/+': 'value 2 & more\n', raw: 'value ${v} & more\n' };

  it('follows every XML list link (servlet path, 301) to the block text', async () => {
    const res = await get(`${base}/rest/advancedcodeblocks/1/download_list/xml?contentId=${contentId}&macroId=${macroId}`);
    expect(res.status).toBe(200);
    const blocks = parseXml(await res.text()).children[1]!.children.map((b) => fields(b));
    expect(blocks.map((b) => b.name)).toEqual(Object.keys(expected));
    for (const b of blocks) {
      const block = await get(b.download!);
      expect(block.status).toBe(200);
      expect(block.redirected).toBe(true);
      expect(await block.text()).toBe(expected[b.name!]);
    }
  });

  it('follows every JSON list link (/code) to the block text', async () => {
    const res = await get(`${base}/rest/advancedcodeblocks/1/download_list/json?contentId=${contentId}&macroId=${macroId}`);
    const body = (await res.json()) as { codeBlocks: { name: string; download: string }[] };
    expect(body.codeBlocks).toHaveLength(3);
    for (const b of body.codeBlocks) {
      const block = await get(b.download);
      expect(block.status).toBe(200);
      expect(block.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await block.text()).toBe(expected[b.name]);
    }
  });

  it('a servlet link followed without credentials ends in the generation 401', async () => {
    const res = await fetch(`${base}/plugins/servlet/advanced-codeblock-macro-downloadcode?key=cmF3&pageId=${contentId}&macroId=${macroId}`);
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('Client must be authenticated to access this resource.\n');
  });
});
