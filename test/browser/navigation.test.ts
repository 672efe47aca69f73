import { describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { hasChromium, openPage, signInThroughForm, textOf, unexpected, useAppAndBrowser, type WebApp } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { basic, uniq } from '../helpers/test-app.ts';

const FE = '/rest/trackercustomfieldeditorplugin/1';

/** How many lines an element's text takes (distinct tops of its line boxes). */
const linesOf = (locator: Locator) =>
  locator.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });

/** Issue 42, item 3: the menu at both widths, the grant that asks first, notices told apart, the live theme. */
describe.skipIf(!hasChromium)('navigation and notices', () => {
  let app: WebApp, browser: Browser;
  useAppAndBrowser({}, (s) => ({ app, browser } = s));

  it('keeps an administrator’s menu on one row at 1280 px, with one Fields entry for the field screens', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'admin', 'admin-secret');
    const tops = await page.locator('nav[aria-label="Main"] a').evaluateAll((links) => links.map((a) => a.getBoundingClientRect().top));
    expect(tops.length).toBeGreaterThanOrEqual(8);
    expect(new Set(tops).size).toBe(1);
    expect(await page.getByTestId('nav-menu').isVisible()).toBe(false);
    const labels = await page.locator('nav[aria-label="Main"] a').allTextContents();
    expect(labels.filter((l) => l === 'Fields')).toHaveLength(1);
    expect(labels).not.toContain('Administration');
    // The home is the one field screen: who may edit, the delete setting, the way to each field's administration.
    await page.getByTestId('setting-only-admins-delete').waitFor();
    await page.goto(`${app.url}/#/admin/10000`);
    expect(await page.getByTestId('nav-admin-home').getAttribute('aria-current')).toBe('page');
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('folds the menu behind a button at 390 px that opens it, and closes it once an entry is chosen', async () => {
    const { page, context } = await openPage(browser, { width: 390, height: 844 });
    await signInThroughForm(page, app.url, 'admin', 'admin-secret');
    expect(await page.getByTestId('nav-users').isVisible()).toBe(false);
    expect(await page.getByTestId('nav-menu').getAttribute('aria-expanded')).toBe('false');
    await page.getByTestId('nav-menu').click();
    expect(await page.getByTestId('nav-menu').getAttribute('aria-expanded')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('nav-users').click();
    await page.getByTestId('user-row').first().waitFor();
    expect(await page.getByTestId('nav-users').isVisible()).toBe(false);
    // No table scrolls sideways, and the page does not either.
    const overflow = await page.evaluate(() => [...document.querySelectorAll('table')].filter((t) => t.scrollWidth > t.clientWidth + 1).length);
    expect(overflow).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('keeps words whole at 390 px: the product name in the top bar, a token’s name on a user’s page, the groups’ names, the fields’ types', async () => {
    await app.http.post('/rest/pat/latest/tokens').set('Authorization', basic('alice', 'alice')).send({ name: 'provisioning' }).expect(201);
    const { page, context, problems } = await openPage(browser, { width: 390, height: 844 });
    await signInThroughForm(page, app.url, 'admin', 'admin-secret', '#/users/alice');
    const name = page.getByTestId('token-row').filter({ hasText: 'provisioning' }).locator('td > div').first();
    await name.waitFor();
    expect(await linesOf(page.locator('.top .brand'))).toBe(1);
    expect(await linesOf(name)).toBe(1);
    // The name, Menu, the theme and Sign out share one row.
    const tops = await page.locator('.top > :is(.brand, button)').evaluateAll((els) => els.filter((e) => e.getClientRects().length > 0).map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)));
    expect(tops).toHaveLength(4);
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    // The groups' names, "system-administrators" the longest, each on one line.
    await page.goto(`${app.url}/#/groups`);
    const names = page.locator('[data-testid="group-row"] a');
    await names.first().waitFor();
    const lines: Record<string, number> = {};
    for (const link of await names.all()) lines[(await link.textContent())!] = await linesOf(link);
    expect(lines).toMatchObject({ administrators: 1, 'system-administrators': 1 });
    expect(new Set(Object.values(lines))).toEqual(new Set([1]));
    expect(await seriousViolations(page)).toEqual([]);
    // The administration's field types, "cascadingselect" and "multicheckboxes" among them, each on one line.
    await page.goto(`${app.url}/#/admin`);
    const types = page.locator('[data-testid="field-row"] td[data-label="Type"] > div');
    await types.first().waitFor();
    const typeLines: Record<string, number> = {};
    for (const type of await types.all()) typeLines[(await type.textContent())!] = await linesOf(type);
    expect(typeLines).toMatchObject({ cascadingselect: 1, multicheckboxes: 1 });
    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('brings the first option row onto the first screen at 390 px', async () => {
    const { page, context } = await openPage(browser, { width: 390, height: 844 });
    await signInThroughForm(page, app.url, 'alice', 'alice', '#/fields/10000/default');
    const row = page.getByTestId('option-row').first();
    await row.waitFor();
    const box = await row.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    await context.close();
  });

  it('says what “Grant me and open editor” grants before it does; Cancel grants nothing', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'admin', 'admin-secret');
    const row = page.locator('[data-testid="admin-home-field"][data-field-id="10000"]');
    const button = row.getByTestId('admin-home-open-editor');
    expect(await textOf(button)).toBe('Grant me and open editor');
    await button.click();
    const dialog = await textOf(page.getByRole('dialog'));
    expect(dialog).toContain('Grant yourself Demo Single Select?');
    expect(dialog).toContain('lasting grant on every context');
    await page.getByTestId('confirm-cancel').click();
    const grants = async () => (await app.http.get(`${FE}/admin/customfields/10000`).set('Authorization', app.adminAuth).expect(200)).body.userlist as string[];
    expect(await grants()).not.toContain('admin');
    await button.click();
    await page.getByTestId('confirm').click();
    await page.getByTestId('option-row').first().waitFor();
    expect(await grants()).toContain('admin');
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('adds a user to a group with suggestions and removes it again, checked over REST', async () => {
    await app.http.post('/rest/api/2/group').set('Authorization', app.adminAuth).send({ name: 'support-team' }).expect(201);
    const groupsOf = async () =>
      ((await app.http.get('/rest/api/2/user?username=alice&expand=groups').set('Authorization', app.adminAuth).expect(200)).body.groups.items as { name: string }[]).map((g) => g.name);
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'admin', 'admin-secret', '#/users/alice');
    await page.getByTestId('user-group-name').fill('support');
    await page.waitForFunction(() => [...document.querySelectorAll('#user-group-suggestions option')].some((o) => (o as HTMLOptionElement).value === 'support-team'));
    await page.getByTestId('user-group-name').fill('support-team');
    await page.getByTestId('user-group-add').click();
    expect(await textOf(page.getByTestId('success-message'))).toContain('alice is now a member of support-team.');
    expect(await groupsOf()).toContain('support-team');
    await page.getByTestId('user-group').filter({ hasText: 'support-team' }).getByTestId('user-group-remove').click();
    expect(await textOf(page.getByRole('dialog'))).toContain('Remove alice from support-team?');
    await page.getByTestId('confirm').click();
    await page.getByText('alice is no longer a member of support-team.').waitFor();
    expect(await groupsOf()).not.toContain('support-team');
    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows an administrator a system administrator’s page with the note and no password, delete or token controls', async () => {
    const root = await app.createUser(uniq('root'), { sysadmin: true });
    await app.tokenFor(root.name);
    const adm = await app.createUser(uniq('adm'), { admin: true });
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, adm.name, adm.password, `#/users/${root.name}`);
    expect(await textOf(page.locator('p.info').filter({ hasText: 'system administrator' }))).toContain(`${root.name} is a system administrator: only a system administrator can change it, its password or its tokens.`);
    for (const testId of ['user-display-name', 'user-active', 'user-new-password', 'user-reset-password', 'user-tokens', 'token-row', 'user-delete']) {
      expect(await page.getByTestId(testId).count(), testId).toBe(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    // The server refuses what the screen does not offer.
    const asAdm = `Basic ${Buffer.from(`${adm.name}:${adm.password}`).toString('base64')}`;
    await app.http.put(`/rest/api/2/user/password?username=${root.name}`).set('Authorization', asAdm).send({ password: 'another-password' }).expect(403);
    await app.http.delete(`/rest/api/2/user?username=${root.name}`).set('Authorization', asAdm).expect(403);
    // The same administrator on an ordinary user's page has them all.
    await page.goto(`${app.url}/#/users/alice`);
    await page.getByTestId('user-delete').waitFor();
    for (const testId of ['user-display-name', 'user-new-password', 'user-tokens']) expect(await page.getByTestId(testId).count(), testId).toBe(1);
    expect(await page.getByText('is a system administrator').count()).toBe(0);
    // The tokens request of the system administrator's page is the one refusal (403) the screen expects.
    expect(unexpected(problems, [403])).toEqual([]);
    await context.close();
  });

  it('tells success, information, warning and error apart, and follows a system theme change without a reload', async () => {
    const { page, context } = await openPage(browser);
    await page.emulateMedia({ colorScheme: 'light' });
    await signInThroughForm(page, app.url, 'admin', 'admin-secret', '#/groups');
    await page.getByTestId('group-row').first().waitFor();
    await page.getByLabel('Filter').fill('no such group at all');
    await page.locator('p.info').waitFor();
    const look = (sel: string) => page.locator(sel).first().evaluate((e) => { const s = getComputedStyle(e); return `${s.backgroundColor}|${s.borderLeftColor}`; });
    const info = await look('p.info');
    await page.getByLabel('Filter').fill('');
    await page.getByTestId('group-create-name').fill('navtest');
    await page.getByTestId('group-create-submit').click();
    const success = await look('[data-testid="success-message"]');
    await page.getByTestId('group-create-name').fill('navtest');
    await page.getByTestId('group-create-submit').click();
    const error = await look('[data-testid="error-message"]');
    // A warning: unticking "Active" on one's own page warns before anything is saved (nothing is).
    await page.goto(`${app.url}/#/users/admin`);
    await page.getByTestId('user-active').uncheck();
    expect(await textOf(page.locator('p.warning'))).toContain('You are deactivating yourself');
    const warning = await look('p.warning');
    expect(new Set([info, success, warning, error]).size).toBe(4);

    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await context.close();
  });
});
