import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

describe('the embedded database in a data folder', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-data-'));
  let first: ServerProcess | undefined;
  afterAll(async () => {
    await first?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps data across a restart, and a second process on the same folder stops at once with a clear message', async () => {
    first = await startServerProcess({ DATA_DIR: dir, ADMIN_PASSWORD: 'pw1', DEMO: '0' });
    const auth = { Authorization: `Basic ${Buffer.from('admin:pw1').toString('base64')}` };
    const created = await fetch(`${first.url}/rest/api/2/group`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'survivors' }),
    });
    expect(created.status).toBe(201);

    const second = runCli(['serve'], { DATA_DIR: dir, PORT: '0' });
    const { code, output } = await second.done;
    expect(code).toBe(1);
    expect(output).toMatch(/in use by another addon-pair process/);

    expect(await first.stop()).toBe(0);
    first = await startServerProcess({ DATA_DIR: dir, ADMIN_PASSWORD: 'ignored-now', DEMO: '0' });
    const picker = await fetch(`${first.url}/rest/api/2/groups/picker?query=surv`, { headers: auth });
    expect(((await picker.json()) as { total: number }).total).toBe(1);
  }, 120_000);
});
