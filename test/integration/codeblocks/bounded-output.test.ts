// Issue 44, finding 5: a code-box template that repeats a long value expands without bound (a 206 KB page whose
// block repeats `${a}` (6,000 characters) 50,000 times made one download 300 MB and +570 MB of memory). A block
// has a maximum size (CODEBLOCK_MAX_MB, 10 MiB by default): beyond it the API's 500 MACRO_BODY_PROCESSING,
// reached by a rendering that stops at the bound, while the server keeps answering.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { keyOf, WikiFixtures } from '../../helpers/wiki-fixtures.ts';
import { expect500 } from './support.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const MB = 1024 * 1024;

describe('code blocks: bounded output (issue 44)', () => {
  const t = useTestApp();
  let fx: WikiFixtures;
  let user: TestUser;
  let pageId: number;

  beforeAll(async () => {
    fx = new WikiFixtures(t);
    user = await t.createUser('bomb-reader', { groups: ['bomb-team'] });
    const space = await fx.space('BOMB', { groups: ['bomb-team'] });
    pageId = await fx.content({ space });
  });

  const download = (macroId: string, key: string) => t.http.get(E1).query({ key, macroId, contentId: String(pageId) }).set('Authorization', user.auth);

  it('refuses the 300 MB expansion of a 206 KB block with 500 MACRO_BODY_PROCESSING, memory bounded, /status answering', async () => {
    const body = `[a]\na = ${'x'.repeat(6000)}\n[content]\n${'${a}'.repeat(50_000)}`;
    expect(body.length).toBeGreaterThan(200_000);
    expect(body.length).toBeLessThan(210_000);
    const macroId = await fx.codebox(pageId, 'advanced-codeblock-macro', body);

    global.gc?.();
    const base = process.memoryUsage.rss();
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
    const statusTimes: number[] = [];
    let attacking = true;
    const probe = (async () => {
      while (attacking) {
        const started = Date.now();
        await t.http.get('/status').expect(200);
        statusTimes.push(Date.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      // Three at once, as the tester ran them.
      const answers = await Promise.all([1, 2, 3].map(() => download(macroId, keyOf('a'))));
      for (const res of answers) expect500('5', 'E1', res, 'MACRO_BODY_PROCESSING', 'larger than 10485760 bytes');
    } finally {
      attacking = false;
      await probe;
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage.rss());
    // Unbounded, one download alone took +570 MB; bounded, three stay within a few times the 10 MiB limit.
    expect((peak - base) / MB).toBeLessThan(150);
    expect(statusTimes.length).toBeGreaterThan(0);
    expect(Math.max(...statusTimes)).toBeLessThan(1000);
  });

  it('still serves a block just under the bound, byte for byte', async () => {
    // 9.5 MiB: 2,000 copies of a 5,000-byte value (multi-byte characters counted as bytes).
    const value = 'é'.repeat(2500);
    const macroId = await fx.codebox(pageId, 'advanced-codeblock-macro', `[big]\nv = ${value}\n[content]\n${'${v}'.repeat(2000)}|\${unknown}`);
    const res = await download(macroId, keyOf('big')).expect(200);
    expect(res.text).toBe(`${value.repeat(2000)}|\${unknown}`);
  });
});
