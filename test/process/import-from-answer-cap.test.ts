// Issue 44, low item: SOURCE_MAX_ANSWER_MB caps what `import-from` reads of one answer of a live source. A source
// whose first answer (the space list) is 1.5 MB stops an import run with SOURCE_MAX_ANSWER_MB=1, naming the
// setting, and passes the cap with SOURCE_MAX_ANSWER_MB=2; a value outside 1-1024 is a configuration error.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../helpers/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['bin/addon-pair.mjs', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('import-from: the live source answer cap (SOURCE_MAX_ANSWER_MB)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-answer-cap-'));
  // A valid, empty space list padded to 1.5 MB, sent without a length (chunked), so the cap counts as it reads.
  const body = JSON.stringify({ results: [], start: 0, limit: 1, size: 0, padding: 'x'.repeat(1.5 * 1024 * 1024) });
  const source = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  let url: string;
  // One target folder for the three runs, one after another: a dry run writes nothing there but a new folder's first
  // administrator, and no answer below depends on whether it exists.
  const target = { DATA_DIR: migratedDataDir(path.join(dir, 'target')), ADMIN_PASSWORD: 'target-admin', ADDON_PAIR_SOURCE_TOKEN: 'source-token' };
  const env = () => target;

  beforeAll(async () => {
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => source.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a larger answer under a smaller setting, naming the setting', async () => {
    const run = await cli(['import-from', 'wiki', url, '--space', 'CAP', '--dry-run'], { ...env(), SOURCE_MAX_ANSWER_MB: '1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/answered more than 1048576 bytes \(SOURCE_MAX_ANSWER_MB\)/);
  }, 60_000);

  it('reads the same answer under a setting that allows it', async () => {
    const run = await cli(['import-from', 'wiki', url, '--space', 'CAP', '--dry-run'], { ...env(), SOURCE_MAX_ANSWER_MB: '2' });
    expect(run.stderr).not.toMatch(/SOURCE_MAX_ANSWER_MB/);
    expect(run.stderr).not.toMatch(/answered more than/);
    // It went on to the next request (the space itself), which this stand-in cannot answer.
    expect(run.stderr).toMatch(/rest\/api\/space\/CAP answered/);
  }, 60_000);

  it('refuses a setting outside 1-1024 as a configuration error', async () => {
    const run = await cli(['import-from', 'wiki', url, '--space', 'CAP', '--dry-run'], { ...env(), SOURCE_MAX_ANSWER_MB: '0' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/SOURCE_MAX_ANSWER_MB/);
  }, 60_000);
});
