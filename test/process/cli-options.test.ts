import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHEAP_HASHES, migratedDataDir, runCli, startServerProcess } from '../helpers/server-process.ts';

// `addon-pair options export|sync` (issue 27): over REST against a running server with a token, and on the
// (embedded) database as a named user; progress on standard error, the file or diff on standard output.
describe('the options command line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-cli-options-'));
  const env = { DATA_DIR: migratedDataDir(path.join(dir, 'data')), ADMIN_PASSWORD: 'cli-admin', DEMO: '0' };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const cli = async (...args: string[]) => runCli(args, env).done;
  const admin = { Authorization: `Basic ${Buffer.from('boss:boss-pw').toString('base64')}`, 'Content-Type': 'application/json' };
  const FE = '/rest/trackercustomfieldeditorplugin/1';

  it('syncs and exports over REST with a token, then on the database as a user', async () => {
    expect((await cli('migrate')).code).toBe(0);
    const server = await startServerProcess({ ...env, ...CHEAP_HASHES });
    let fieldId: number;
    try {
      // The users and the token through the running server (its command socket), which has the database open
      // already: on the database each command would open it again.
      expect((await cli('user', 'add', 'olga', '--password', 'pw')).code).toBe(0);
      expect((await cli('user', 'add', 'boss', '--password', 'boss-pw', '--admin')).code).toBe(0);
      const token = (await cli('token', 'create', 'olga')).output.trim().split('\n').at(-1)!;
      const field = await fetch(`${server.url}/rest/api/2/field`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Region', type: 'com.atlassian.jira.plugin.system.customfieldtypes:cascadingselect' }),
      });
      expect(field.status).toBe(201);
      fieldId = Number(((await field.json()) as { schema: { customId: number } }).schema.customId);
      const granted = await fetch(`${server.url}${FE}/admin/customfields/${fieldId}`, {
        method: 'PATCH',
        headers: admin,
        body: JSON.stringify({ user: 'olga', action: 'GRANT', type: 'GLOBAL' }),
      });
      expect(granted.status).toBe(200);

      const file = path.join(dir, 'regions.csv');
      fs.writeFileSync(file, 'path\r\nEurope\r\nEurope/Germany\r\nEurope/France\r\nAsia\r\n');
      const rest = ['--url', server.url, '--token', token];
      const preview = await cli('options', 'sync', String(fieldId), 'default', file, ...rest);
      expect(preview.code, preview.output).toBe(0);
      expect(preview.output).toContain('preview: create 4, rename 0, move 0, disable 0, enable 0, delete 0, unlisted 0');
      const applied = await cli('options', 'sync', String(fieldId), 'default', file, '--apply', ...rest);
      expect(applied.code, applied.output).toBe(0);
      expect(applied.output).toContain('applied: create 4');

      const out = path.join(dir, 'out.csv');
      const exported = await cli('options', 'export', String(fieldId), 'default', '--output', out, '--no-bom', ...rest);
      expect(exported.code, exported.output).toBe(0);
      expect(exported.output).toContain('exported 4 options');
      const rows = fs.readFileSync(out, 'utf8').split('\r\n');
      expect(rows[0]).toBe('id,path,disabled,position,default');
      expect(rows.slice(1, 5).map((r) => r.split(',')[1])).toEqual(['Europe', 'Europe/Germany', 'Europe/France', 'Asia']);

      // Without --no-bom the file keeps the byte-order mark the server sent, as the REST and web exports have
      // it (issue 42: the command line decoded the body with a TextDecoder that dropped it).
      const withBom = path.join(dir, 'bom.csv');
      const bom = await cli('options', 'export', String(fieldId), 'default', '--output', withBom, ...rest);
      expect(bom.code, bom.output).toBe(0);
      const bytes = fs.readFileSync(withBom);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(bytes.subarray(3).toString('utf8').split('\r\n')[0]).toBe('id,path,disabled,position,default');

      const wrong = await cli('options', 'export', String(fieldId), 'default', '--url', server.url, '--token', 'nope');
      expect(wrong.code).toBe(1);
      expect(wrong.output).toMatch(/The server answered 401/);
    } finally {
      await server.stop();
    }

    // On the database: the export as olga to standard output, and its own sync finds nothing to change.
    // The CSV written on the database keeps the byte-order mark too, as the REST export above does.
    const dbCsv = path.join(dir, 'db.csv');
    const csvOnDb = await cli('options', 'export', String(fieldId), 'default', '--user', 'olga', '--output', dbCsv);
    expect(csvOnDb.code, csvOnDb.output).toBe(0);
    const dbBytes = fs.readFileSync(dbCsv);
    expect([...dbBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(dbBytes.subarray(3).toString('utf8').split('\r\n').slice(0, 2)).toEqual(['id,path,disabled,position,default', expect.stringMatching(/^\d+,Europe,false,0,/)]);
    const json = await cli('options', 'export', String(fieldId), 'default', '--user', 'olga');
    expect(json.code, json.output).toBe(0);
    const start = json.output.indexOf('{');
    const body = JSON.parse(json.output.slice(start, json.output.lastIndexOf('}') + 1)) as { options: { optionvalue: string; children: unknown[] }[] };
    expect(body.options.map((o) => o.optionvalue)).toEqual(['Europe', 'Asia']);
    const file = path.join(dir, 'tree.json');
    fs.writeFileSync(file, JSON.stringify(body));
    const same = await cli('options', 'sync', String(fieldId), 'default', file, '--user', 'olga');
    expect(same.code, same.output).toBe(0);
    expect(same.output).toContain('preview: create 0, rename 0, move 0, disable 0, enable 0, delete 0, unlisted 0');
    const nobody = await cli('options', 'export', String(fieldId), 'default');
    expect(nobody.code).toBe(1);
    expect(nobody.output).toMatch(/--user NAME/);
  }, 240_000);
});
