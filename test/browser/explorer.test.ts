import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BROWSER_SETUP_MS, closeContexts, hasChromium, sharedBrowser, startWebApp, type WebApp } from '../helpers/browser.ts';
import { ADMIN } from '../helpers/test-app.ts';

// Swagger UI and its page depend on no database: run once, here, rather than in both database projects.
describe('the API explorer in a browser', () => {
  let t: WebApp;
  let origin: string;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [t, browser] = await Promise.all([startWebApp({ DEMO: '0' }), hasChromium ? sharedBrowser() : undefined]);
    origin = t.url;
  }, BROWSER_SETUP_MS);
  afterAll(async () => {
    if (browser) await closeContexts(browser);
    await t?.close();
  });

  it.skipIf(!hasChromium)('loads from this origin only, without console errors, and sends an authorized "try it out" request', async () => {
    const page = await browser!.newPage();
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
