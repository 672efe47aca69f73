import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataTemplate, templateIsStale } from '../../scripts/build.mjs';
import { freePort, SEVERAL_PROCESSES } from '../helpers/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

// Issue 42, starting: a first start on an empty folder copies the build's migrated template (no initdb, no
// migrations: how long it takes is the bench's, bench/start-timing.ts, not a test's), and says what
// it does in one human line at a terminal, then where it listens. `script` gives the server a terminal.
describe.skipIf(!fs.existsSync('/usr/bin/script'))('the first start at a terminal', SEVERAL_PROCESSES, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-first-start-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  beforeAll(() => {
    if (templateIsStale()) buildDataTemplate();
  }, 120_000);

  it("copies the template, with a human line while it works and one saying where it listens", async () => {
    const data = path.join(dir, 'data');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const command = `exec ${process.execPath} bin/addon-pair.mjs serve`;
    const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir, TERM: 'dumb', DATA_DIR: data, PORT: String(port), HOST: '127.0.0.1', BASE_URL: url, ADMIN_PASSWORD: 'first-pw', DEMO: '0', LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      const deadline = Date.now() + 90_000;
      while (!out.includes('listening on') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const lines = out.split(/\r?\n/);
      expect(lines, out).toContain(`Creating the database in ${data} (first start: copying the build's migrated template) …`);
      expect(lines, out).toContain(`addon-pair listening on ${url} (127.0.0.1:${port}, pglite:${data})`);
      expect(out.indexOf('Creating the database')).toBeLessThan(out.indexOf('listening on'));
      expect(out).not.toMatch(/"msg":"addon-pair listening"/);
      const me = await fetch(`${url}/rest/api/2/myself`, { headers: { Authorization: `Basic ${Buffer.from('admin:first-pw').toString('base64')}` } });
      expect(me.status).toBe(200);
      // Nothing of the copy is left beside the database.
      expect(fs.readdirSync(data).filter((n) => n.startsWith('.initdb-'))).toEqual([]);
    } finally {
      child.stdin.end();
      child.kill('SIGTERM');
      await exited;
    }
  }, 180_000);
});
