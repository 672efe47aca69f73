// `addon-pair import-from wiki URL` as a real process: a demo server is the live source; its DEMO space is
// imported into a new embedded folder with a token (given through ADDON_PAIR_SOURCE_TOKEN, never printed), a
// re-run changes nothing, and a server on the imported folder answers the same content and the same E1 bytes
// by pageId=. A wrong token is one line and exit 1.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHEAP_HASHES, migratedDataDir, startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { DEMO_IDS } from '../../src/wiki/wiki.demo.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const key = (name: string) => Buffer.from(name, 'utf8').toString('base64');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/addon-pair.mjs', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('import-from wiki (command line, live source)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-import-wiki-'));
  const srcEnv = { ...CHEAP_HASHES, DATA_DIR: migratedDataDir(path.join(dir, 'source')), ADMIN_PASSWORD: 'source-admin', DEMO: '1' };
  const targetEnv = { DATA_DIR: migratedDataDir(path.join(dir, 'target')), ADMIN_PASSWORD: 'target-admin', DEMO: '0' };
  const srcAuth = `Basic ${Buffer.from('admin:source-admin').toString('base64')}`;
  const targetAuth = `Basic ${Buffer.from('admin:target-admin').toString('base64')}`;
  let source: ServerProcess;
  let token: string;

  beforeAll(async () => {
    source = await startServerProcess(srcEnv);
    const res = await fetch(`${source.url}/rest/pat/latest/tokens`, {
      method: 'POST',
      headers: { Authorization: srcAuth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'import' }),
    });
    expect(res.status).toBe(201);
    token = ((await res.json()) as { rawToken: string }).rawToken;
    // The target folder is new: the import makes its first administrator (ADMIN_PASSWORD) before it writes the
    // source's users, among them an `admin`, as a first start would; the server started later signs it in.
  }, 180_000);
  afterAll(async () => {
    await source?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports the DEMO space; a re-run is unchanged; the imported wiki answers the same content and E1 bytes', async () => {
    const run = () => cli(['import-from', 'wiki', source.url, '--space', 'DEMO', '--json'], { ...targetEnv, ADDON_PAIR_SOURCE_TOKEN: token });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as { source: string; units: { name: string; outcome: string; counts: Record<string, { created: number }> }[] };
    expect(report.source).toBe(`wiki ${source.url}`);
    expect(report.units).toMatchObject([{ name: 'DEMO', outcome: 'imported' }]);
    expect(report.units[0]!.counts.pages?.created).toBeGreaterThanOrEqual(2);
    expect(first.stderr).toMatch(/space DEMO/);
    for (const out of [first.stdout, first.stderr]) expect(out).not.toContain(token);
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ units: [{ name: 'DEMO', outcome: 'unchanged' }] });

    const target = await startServerProcess(targetEnv);
    try {
      // Imported spaces carry no permissions: the administrator grants itself read, to compare.
      const grant = await fetch(`${target.url}/rest/api/space/DEMO/permission`, {
        method: 'POST',
        headers: { Authorization: targetAuth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ subject: { type: 'user', identifier: 'admin' }, operation: { key: 'read', target: 'space' } }),
      });
      expect(grant.status).toBe(200);
      const get = async (server: ServerProcess, auth: string, p: string) => {
        const res = await fetch(`${server.url}${p}`, { headers: { Authorization: auth } });
        return { status: res.status, text: await res.text() };
      };
      for (const id of [DEMO_IDS.page, DEMO_IDS.blogpost, DEMO_IDS.comment]) {
        const [a, b] = [await get(source, srcAuth, `/rest/api/content/${id}?expand=body.storage`), await get(target, targetAuth, `/rest/api/content/${id}?expand=body.storage`)];
        expect(b.status, b.text).toBe(200);
        const pick = (t: string) => {
          const j = JSON.parse(t) as { id: string; type: string; title: string; version: { number: number }; body: { storage: { value: string } } };
          return [j.id, j.type, j.title, j.version.number, j.body.storage.value];
        };
        expect(pick(b.text)).toEqual(pick(a.text));
      }
      const e1 = (id: number, macroId: string, section: string) =>
        `/rest/advancedcodeblocks/1/download_code/plain_text?key=${encodeURIComponent(key(section))}&macroId=${macroId}&pageId=${id}`;
      for (const [id, macro, section] of [
        [DEMO_IDS.page, DEMO_IDS.pageMacro, 'testsystem 1'],
        [DEMO_IDS.page, DEMO_IDS.pageMacro, 'raw'],
        [DEMO_IDS.blogpost, DEMO_IDS.blogMacro, 'raw'],
        [DEMO_IDS.comment, DEMO_IDS.commentMacro, 'raw'],
      ] as const) {
        const [a, b] = [await get(source, srcAuth, e1(id, macro, section)), await get(target, targetAuth, e1(id, macro, section))];
        expect(a.status, a.text).toBe(200);
        expect(b).toEqual(a);
      }
    } finally {
      await target.stop();
    }
  }, 300_000);

  it('answers a refused token with one line and exit 1, without the token', async () => {
    const r = await cli(['import-from', 'wiki', source.url, '--space', 'DEMO', '--token', 'wrong-token-0815'], targetEnv);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/refused the credentials \(401\)/);
    expect(r.stderr).not.toContain('wrong-token-0815');
    expect(r.stdout).toBe('');
  }, 120_000);
});
