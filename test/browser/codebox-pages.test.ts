// Issue 42, navigation: a space's content list marks the pages that hold code boxes (`codebox-page`) and lists
// the blog posts and comments that hold them, as far as the user may view them (the server's content list,
// /rest/advancedcodeblocks/1/content_list/json); a restricted page's boxes are never shown. axe-core on the
// screen. With SCREENSHOTS=1 the screen is also saved to docs/screenshots at 1280×800 and 390×844, light and dark.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, openPage, textOf, unexpected, useSignedInBrowser, type WebApp, type WebPage } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { basic } from '../helpers/test-app.ts';
import { codeboxMacro, createContent, grantSpace, restrictContent } from '../helpers/wiki-fixtures.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');
const ALICE = basic('alice', 'alice');
const BOX = '[a]\nx = 1\n[content]\n${x}\n';
const ids = { plain: 0, twoBoxes: 0, secret: 0 };

/** Beside the demo's page 1001, blog post 1002 and comment 1003: a page without boxes, one with two, and one with a box only the administrator may read. */
async function prepare(app: WebApp): Promise<void> {
  await grantSpace(app, 'DEMO', { user: 'admin' }, 'read');
  await grantSpace(app, 'DEMO', { user: 'admin' }, 'create');
  const box = () => codeboxMacro('advanced-codeblock-macro', BOX);
  ids.plain = Number((await createContent(app, app.adminAuth, { space: 'DEMO', title: 'Plain notes' })).id);
  ids.twoBoxes = Number((await createContent(app, app.adminAuth, { space: 'DEMO', title: 'Two scripts', body: `<p>x</p>${box()}${box()}` })).id);
  ids.secret = Number((await createContent(app, app.adminAuth, { space: 'DEMO', title: 'Secret runbook', body: box() })).id);
  await restrictContent(app, app.adminAuth, ids.secret, { users: ['admin'] });
}

describe.skipIf(!hasChromium)('code boxes marked in a space (issue 42)', () => {
  let app: WebApp, w: WebPage, page: Page, browser: Browser;

  useSignedInBrowser({ user: { name: 'alice', password: 'alice' }, prepare }, (s) => ({ app, webPage: w, page, browser } = s));

  const marks = () =>
    page.locator('[data-testid="content-row"]').evaluateAll((rows) =>
      rows.map((r) => [(r as HTMLElement).dataset.contentId, r.querySelector('[data-testid="codebox-page"]')?.textContent ?? null]),
    );

  it('marks exactly the listed pages that hold code boxes, with their number of boxes', async () => {
    await page.goto(`${app.url}/#/codeboxes/DEMO`);
    await page.getByTestId('codebox-page').first().waitFor();
    const listed = Object.fromEntries(await marks());
    expect(listed[1001]).toBe('1 code box');
    expect(listed[ids.twoBoxes]).toBe('2 code boxes');
    expect(listed[ids.plain]).toBeNull();
    // What the server's content list says, and nothing else.
    const boxed = await app.http.get('/rest/advancedcodeblocks/1/content_list/json?spaceKey=DEMO&type=page&limit=100').set('Authorization', ALICE).expect(200);
    const markedIds = Object.entries(listed).filter(([, m]) => m !== null).map(([id]) => Number(id));
    expect(markedIds).toEqual(boxed.body.results.map((r: { contentId: number }) => r.contentId));
    expect(await textOf(page.getByTestId('codebox-page-count'))).toMatch(/^2 of \d+ pages hold code boxes/);
  });

  it("never shows the restricted page or its box to alice, while the administrator's list has it", async () => {
    expect(await page.locator(`[data-testid="content-row"][data-content-id="${ids.secret}"]`).count()).toBe(0);
    expect(await page.content()).not.toContain('Secret runbook');
    const adminList = await app.http.get('/rest/advancedcodeblocks/1/content_list/json?spaceKey=DEMO').set('Authorization', app.adminAuth).expect(200);
    expect(adminList.body.results.map((r: { contentId: number }) => r.contentId)).toContain(ids.secret);
  });

  it('lists the blog posts and comments that hold code boxes, a comment with its page, and opens one', async () => {
    const rows = await page.getByTestId('codebox-content').evaluateAll((els) =>
      els.map((e) => [(e as HTMLElement).dataset.contentId, (e as HTMLElement).dataset.type, e.textContent]),
    );
    expect(rows).toEqual([
      ['1002', 'blogpost', 'Release notes blog post 1 code box'],
      ['1003', 'comment', 'Re: Web servers comment on Web servers 1 code box'],
    ]);
    await page.locator('[data-testid="codebox-content"][data-content-id="1003"] a').click();
    await page.getByTestId('codebox-block').first().waitFor();
    expect(page.url()).toBe(`${app.url}/#/codeboxes/DEMO/1003`);
  });

  it('has no serious accessibility problem on the marked list', async () => {
    await page.goto(`${app.url}/#/codeboxes/DEMO`);
    await page.getByTestId('codebox-content').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpected(w.problems)).toEqual([]);
  });

  it.runIf(process.env.SCREENSHOTS === '1')('saves the screen at 1280×800 and 390×844, light and dark', async () => {
    for (const size of [{ name: '1280', width: 1280, height: 800 }, { name: '390', width: 390, height: 844 }]) {
      for (const theme of ['light', 'dark'] as const) {
        const shot = await openPage(browser, { width: size.width, height: size.height });
        await shot.page.emulateMedia({ colorScheme: theme });
        const p = shot.page;
        await p.goto(`${app.url}/`);
        await p.getByTestId('login-username').fill('alice');
        await p.getByTestId('login-password').fill('alice');
        await p.getByTestId('login-submit').click();
        await p.getByTestId('logout').waitFor();
        await p.goto(`${app.url}/#/codeboxes/DEMO`);
        await p.getByTestId('codebox-content').first().waitFor();
        await p.waitForTimeout(300);
        const suffix = theme === 'dark' ? '-dark' : '';
        await p.screenshot({ path: path.join(SHOTS, `codebox-pages-${size.name}${suffix}.png`), fullPage: size.name === '390' });
        await shot.context.close();
      }
    }
  }, 180_000);
});
