// import-from tracker (issue 31), the edges: a dry run writes nothing and counts exactly; `fields` limits the
// import; ids taken in the target are mapped and reported; a 401, an unreachable URL and a source answering
// HTML each end in one line naming the cause, with nothing written and no credential in the message.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, useTestApp, type TestApp } from '../../helpers/test-app.ts';
import { addOptions, createField, grant } from '../../helpers/tracker-fixtures.ts';
import { importFromTracker } from '../../../src/migration/tracker-rest/tracker-import.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import type { SourceAuth } from '../../../src/migration/source-http.ts';
import { hostFields, paths, seedSource, serve, snapshot, type SeededSource } from './tracker-helpers.ts';

describe('importFromTracker: dry run, field filter, mapped ids, source failures', () => {
  const source = useTestApp();
  let target: TestApp;
  let seeded: SeededSource;
  let server: { url: string; close: () => Promise<void> };
  let token: string;
  const run = (opts: { url?: string; auth?: SourceAuth; fields?: string[]; dryRun?: boolean }) =>
    importFromTracker(migrationDeps(target.services), {
      url: opts.url ?? server.url,
      auth: opts.auth ?? { token },
      fields: opts.fields,
      dryRun: opts.dryRun ?? false,
      progress: () => undefined,
      timeoutMs: 5000,
    });
  const records = async () => Number(((await target.services.db.knex('migration_records').count({ n: '*' })) as { n: number | string }[])[0]!.n);

  beforeAll(async () => {
    seeded = await seedSource(source);
    server = await serve(source);
    token = (await source.tokenFor('admin')).replace(/^Bearer /, '');
    target = await createTestApp();
    // The target already has a field (taking the tree's field id) with many options (taking the source's option ids).
    const local = await createField(target, { name: uniq('Local ') });
    await grant(target, local.id, { user: 'admin' });
    await addOptions(target, target.adminAuth, paths(local.id, 'default').options, Array.from({ length: 16 }, (_, i) => `L${i}`));
  });
  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('a 401, a user who is not an administrator, an unreachable URL and an HTML answer end in one line naming the cause, nothing written', async () => {
    const before = await hostFields(target);
    await expect(run({ auth: { token: 'not-a-valid-token-at-all' } })).rejects.toThrow(/^http:\/\/127\.0\.0\.1:\d+ refused the credentials \(401\)$/);
    const plain = uniq('plain');
    await source.createUser(plain);
    await expect(run({ auth: { user: plain, password: `${plain}-pw` } })).rejects.toThrow(
      /^http:\/\/127\.0\.0\.1:\d+ lets only administrators list the field editor's fields \(403\): import as an administrator of the source$/,
    );
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    await expect(run({ auth: { user: 'admin', password: 'secret-that-is-wrong' }, url: `http://127.0.0.1:${closed}/` })).rejects.toThrow(
      new RegExp(`^could not reach http://127\\.0\\.0\\.1:${closed}: ECONNREFUSED$`),
    );
    const html = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Log in</body></html>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}/jira`;
      const err = await run({ url, auth: { user: 'admin', password: 'secret-that-is-wrong' } }).catch((e: Error) => e);
      expect(String(err)).toMatch(/answered an HTML page where JSON was expected/);
      expect(String(err)).not.toContain('secret-that-is-wrong');
      expect(String(err)).not.toContain('\n');
    } finally {
      await new Promise((resolve) => html.close(resolve));
    }
    expect(await hostFields(target)).toEqual(before);
    expect(await records()).toBe(0);
  });

  it('a dry run counts exactly what an import would do, and writes nothing', async () => {
    const before = await hostFields(target);
    const report = await run({ dryRun: true, fields: [String(seeded.tree), seeded.singleName] });
    expect(report.dryRun).toBe(true);
    expect(report.units.map((u) => u.outcome)).toEqual(['would-import', 'would-import']);
    const tree = report.units.find((u) => u.name.includes(seeded.treeName))!;
    expect(tree.counts.options).toEqual({ created: 10, updated: 0, unchanged: 0 });
    expect(tree.mapped.some((m) => m.kind === 'field' && m.from === seeded.tree)).toBe(true);
    expect(report.usersWithoutPassword).toEqual([seeded.editor, seeded.member].sort());
    expect(await hostFields(target)).toEqual(before);
    expect(await records()).toBe(0);
    const login = await target.http.get(`/rest/api/2/user?username=${seeded.editor}`).set('Authorization', target.adminAuth);
    expect(login.status).toBe(404);
  });

  it('imports only the fields named; ids taken here are mapped and reported, and everything reads the same', async () => {
    const report = await run({ fields: [`customfield_${seeded.tree}`, seeded.singleName.toUpperCase(), 'No such field'] });
    expect(report.warnings).toContain('no select field No such field on the source');
    expect(report.units.map((u) => u.outcome)).toEqual(['imported', 'imported']);
    const tree = report.units.find((u) => u.name.includes(seeded.treeName))!;
    const fieldMap = tree.mapped.find((m) => m.kind === 'field');
    expect(fieldMap?.from).toBe(seeded.tree);
    expect(fieldMap?.to).not.toBe(seeded.tree);
    expect(tree.mapped.filter((m) => m.kind === 'option').length).toBeGreaterThan(0);
    const names = (await hostFields(target)).map((f) => f.name);
    expect(names).toContain(seeded.treeName);
    expect(names).toContain(seeded.singleName);
    expect(names.some((n) => n.startsWith('Multi '))).toBe(false);
    expect(await snapshot(target, Number(fieldMap!.to), { ids: false })).toEqual(await snapshot(source, seeded.tree, { ids: false }));
    expect(await snapshot(target, seeded.single, { ids: false })).toEqual(await snapshot(source, seeded.single, { ids: false }));

    const again = await run({ fields: [String(seeded.tree), seeded.singleName] });
    expect(again.units.map((u) => u.outcome)).toEqual(['unchanged', 'unchanged']);
  });

  it('reads an old installation that answers only under the 1.2 base path', async () => {
    // A proxy in front of the source that knows nothing of the `1` base path, as an old installation.
    const upstream = new URL(server.url);
    const proxy = createServer((req, res) => {
      if (/\/jiracustomfieldeditorplugin\/1\//.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not found</html>');
        return;
      }
      const fwd = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(fwd);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const messages: string[] = [];
      const report = await importFromTracker(migrationDeps(target.services), {
        url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        auth: { token },
        fields: [String(seeded.multi)],
        dryRun: false,
        progress: (m) => messages.push(m),
      });
      expect(messages).toContain('tracker: the field editor answers under rest/jiracustomfieldeditorplugin/1.2');
      expect(report.units.map((u) => u.outcome)).toEqual(['imported']);
      expect(await snapshot(target, seeded.multi, { ids: false })).toEqual(await snapshot(source, seeded.multi, { ids: false }));
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
