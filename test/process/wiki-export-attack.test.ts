import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir, SEVERAL_PROCESSES, startServerProcess } from '../helpers/server-process.ts';
import { expectStatusAnswered, rssOf, watch } from '../helpers/attack-watch.ts';
import { exportChunks, writeExportZipFrom } from '../helpers/wiki-export-builder.ts';

// Issue 44, finding 8 (the wiki export), as the tester ran it against a real server process: a small zip whose
// entities.xml inflates to one huge CDATA body (before: a 1 MB zip answered 500 at 656 MB of memory). The upload is
// refused with the documented 400 naming the object and property, nothing of the export is written (the space
// before the huge node included), the server's resident memory stays within RSS_BOUND of what it was before, and
// /status answers throughout (docs/security.md, "Uploads and parsers"; docs/migration.md).
const MB = 1024 * 1024;
const RSS_BOUND = 100 * MB;
/** The CDATA section's length in MB: far over the bound the server runs with (WIKI_EXPORT_MAX_TEXT_MB below). */
const HUGE_MB = 256;
const PATH = '/rest/addon-pair/1/migration/wiki-export';

/** A space export with one page, then an object whose body is `HUGE_MB` of one character, made as it is written. */
function* withHugeBody(): Generator<string> {
  const chunks = [...exportChunks({ spaces: [{ id: 31, key: 'HUGE', name: 'Huge', pages: [{ id: 3101, title: 'Before the node', body: '<p>p</p>' }] }] })];
  const footer = chunks.pop()!;
  yield* chunks;
  yield '<object class="BodyContent" package="com.atlassian.confluence.core"><id name="id">3199</id><property name="body"><![CDATA[';
  const piece = 'x'.repeat(MB);
  for (let i = 0; i < HUGE_MB; i++) yield piece;
  yield ']]></property></object>';
  yield footer;
}

describe('the wiki export upload against a huge text node, in a server process', SEVERAL_PROCESSES, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-export-attack-'));
  const env = { DATA_DIR: migratedDataDir(path.join(dir, 'data')), ADMIN_PASSWORD: 'attack-admin', DEMO: '0', WIKI_EXPORT_MAX_TEXT_MB: '4' };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const admin = { Authorization: `Basic ${Buffer.from('admin:attack-admin').toString('base64')}` };

  it('refuses a small zip that inflates to one 256 MB CDATA: 400 naming it, nothing written, memory bounded, /status answering', async () => {
    const zip = path.join(dir, 'huge.zip');
    writeExportZipFrom(zip, withHugeBody());
    const body = fs.readFileSync(zip);
    expect(body.length).toBeLessThan(2 * MB);
    const server = await startServerProcess(env);
    try {
      const upload = async () => {
        const res = await fetch(`${server.url}${PATH}`, { method: 'POST', headers: { ...admin, 'Content-Type': 'application/zip' }, body });
        return { status: res.status, body: (await res.json()) as { errorMessages?: string[] } };
      };
      // Warm: the first upload compiles and loads what every later one uses (the export reader, the zip's inflater).
      expect((await upload()).status).toBe(400);
      const before = rssOf(server.child.pid!);
      let answers: Awaited<ReturnType<typeof upload>>[] = [];
      const seen = await watch(server, async () => {
        answers = await Promise.all([upload(), upload()]);
      });
      console.log(`RSS before ${before}, peak ${seen.rss}`);
      for (const a of answers) {
        expect(a.status).toBe(400);
        expect(a.body.errorMessages).toEqual([
          expect.stringMatching(/holds a text longer than 4 MB characters in object BodyContent 3199, property body \(line \d+\): raise WIKI_EXPORT_MAX_TEXT_MB to import it$/),
        ]);
      }
      expect(seen.rss - before, `RSS ${before} → ${seen.rss}`).toBeLessThan(RSS_BOUND);
      expectStatusAnswered(seen);
      // Nothing of the export was written: not the space, nor the page read before the huge node.
      const spaces = (await (await fetch(`${server.url}/rest/api/admin/space`, { headers: admin })).json()) as { results: { key: string }[] };
      expect(spaces.results.map((s) => s.key)).not.toContain('HUGE');
      expect((await fetch(`${server.url}/rest/api/content/3101`, { headers: admin })).status).toBe(404);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.stop();
    }
  }, 240_000);
});
