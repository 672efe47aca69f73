import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { ADMIN, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createHttpServer } from '../../../src/server.ts';

// Debian's chromium, with the flags that keep it from calling home (the test fails on any other origin).
const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

describe('the API explorer in a browser', () => {
  let t: TestApp;
  let server: http.Server;
  let origin: string;
  let browser: Browser;
  beforeAll(async () => {
    t = await createTestApp();
    server = createHttpServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch(CHROMIUM);
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t.close();
  });

  it('loads from this origin only, without console errors, and sends an authorized "try it out" request', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.origin !== origin && url.protocol !== 'data:') foreign.push(req.url());
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));

    await page.goto(`${origin}/docs`);
    expect(new URL(page.url()).pathname).toBe('/docs/');
    // Parsing Swagger UI's 1.7 MB bundle takes a while on a busy machine.
    await page.locator('.information-container .title').waitFor({ timeout: 90_000 });
    expect(await page.locator('.information-container .title').textContent()).toContain('addon-pair host REST');
    // All three descriptions are offered in the top bar.
    const offered = await page.locator('.topbar select option').allTextContents();
    expect(offered).toEqual(['Host: directory, tokens, wiki, tracker', 'Code-block downloads', 'Field editor (administrators: Authorize first)']);

    // Authorize with Basic, as a person would.
    await page.locator('.scheme-container button.authorize').click();
    await page.locator('#auth-basic-username').fill(ADMIN.name);
    await page.locator('#auth-basic-password').fill(ADMIN.password);
    await page.locator('.auth-container', { has: page.locator('#auth-basic-username') }).locator('button.authorize').click();
    await page.locator('.modal-ux button.close-modal').click();

    // GET /rest/api/2/myself: open it, "Try it out", "Execute".
    const op = page.locator('#operations-Users_and_groups-getRestApi2Myself');
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toContain('200');
    expect(await op.locator('.live-responses-table .response-col_description pre').first().textContent()).toContain(`"name": "${ADMIN.name}"`);
    // Who may call it: the operation's declared access, among its extensions.
    expect(await op.locator('tr', { hasText: 'x-access' }).first().textContent()).toContain('user');

    // The administrators' document loads with the credentials Authorize holds.
    await page.locator('.topbar select').selectOption({ label: 'Field editor (administrators: Authorize first)' });
    await expect.poll(() => page.locator('.information-container .title').textContent(), { timeout: 60_000 }).toContain('addon-pair field editor');

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it('serves the page with a policy that forbids other origins, and only the Swagger UI files it names', async () => {
    const res = await t.http.get('/docs/').expect(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("connect-src 'self'");
    await t.http.get('/docs/assets/swagger-ui-bundle.js').expect(200).expect('Content-Type', /javascript/);
    await t.http.get('/docs/assets/package.json').expect(404);
    await t.http.get('/docs/assets/..%2Fpackage.json').expect(404);
  });
});
