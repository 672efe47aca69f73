import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { findAssetDir } from '../../../src/web/static.routes.ts';

describe('the web interface page and assets', () => {
  let t: TestApp;
  let cp: TestApp;
  beforeAll(async () => {
    [t, cp] = await Promise.all([createTestApp(), createTestApp({ BASE_URL: 'http://localhost:8080/wiki' })]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), cp?.close()]);
  });

  it('serves the page at the root with a policy that allows nothing from another origin', async () => {
    const res = await t.http.get('/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<script type="module" src="/web/app.js"></script>');
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).not.toContain('data-signed-in');
  });

  it('tells the page whether it was served to a live session', async () => {
    const login = await t.http.post('/rest/auth/1/session').send({ username: 'admin', password: 'admin-secret' }).expect(200);
    const cookie = (login.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    expect((await t.http.get('/').set('Cookie', cookie).expect(200)).text).toContain('data-signed-in="true"');
    expect((await t.http.get('/').set('Cookie', `JSESSIONID=${'x'.repeat(43)}`).expect(200)).text).not.toContain('data-signed-in');
  });

  it('serves the built script and stylesheet', async () => {
    const js = await t.http.get('/web/app.js').expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    await t.http.get('/web/app.css').expect(200).expect('Content-Type', /css/);
    await t.http.get('/web/nothing.js').expect(404);
    await t.http.get('/web/../package.json').expect(404);
  });

  it('serves everything under the context path', async () => {
    const res = await cp.http.get('/wiki/').expect(200);
    expect(res.text).toContain('src="/wiki/web/app.js"');
    expect(res.text).toContain('data-context-path="/wiki"');
    await cp.http.get('/wiki/web/app.js').expect(200);
    await cp.http.get('/web/app.js').expect(404);
  });

  it('keeps the whole application under 200 KB of gzipped JavaScript, with no reference to another origin', () => {
    const dir = findAssetDir()!;
    const scripts = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
    const total = scripts.reduce((n, f) => n + gzipSync(fs.readFileSync(path.join(dir, f))).length, 0);
    expect(total).toBeLessThan(200 * 1024);
    for (const f of scripts) expect(fs.readFileSync(path.join(dir, f), 'utf8')).not.toMatch(/(src|href)=["']?https?:\/\//);
  });
});
