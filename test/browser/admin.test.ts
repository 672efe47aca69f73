import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, textOf, unexpected, useSignedInBrowser, type WebApp, type WebPage } from '../helpers/browser.ts';
import { ADMIN } from '../helpers/test-app.ts';

const FE = '/rest/trackercustomfieldeditorplugin/1';

describe.skipIf(!hasChromium)('administration in the browser', () => {
  let app: WebApp, w: WebPage, page: Page;
  const admin = (path: string) => app.http.get(path).set('Authorization', app.adminAuth).expect(200);

  useSignedInBrowser(
    { user: ADMIN, prepare: (a) => a.createUser('bruno', { groups: ['qa-team'] }) },
    (s) => ({ app, webPage: w, page } = s),
  );

  it('lists the fields paged, filtered and ordered (A1)', async () => {
    await page.goto(`${app.url}/#/admin`);
    await page.getByTestId('field-row').first().waitFor();
    const ids = () => page.getByTestId('field-row').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset.fieldId)));
    const all = (await admin(`${FE}/admin/customfields?maxResults=20&orderBy=%2Bname`)).body.values.map((f: { fieldId: number }) => f.fieldId);
    expect(await ids()).toEqual(all);
    await page.getByLabel('Order').selectOption('-name');
    await page.waitForFunction((first) => document.querySelector('[data-testid="field-row"]')?.getAttribute('data-field-id') === String(first), all[all.length - 1]);
    expect(await ids()).toEqual([...all].reverse());
    await page.getByLabel('Filter').fill('radio');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="field-row"]').length === 1);
    expect(await ids()).toEqual([10001]);
  });

  it('grants a user with the picker and a group, each removable with one click (global grants)', async () => {
    await page.goto(`${app.url}/#/admin/10004`);
    const global = page.getByRole('group', { name: 'Global grants' });
    await global.getByTestId('grant-user-input').fill('bru');
    // The picker suggests from the user search.
    await page.waitForFunction(() => [...document.querySelectorAll('datalist option')].some((o) => (o as HTMLOptionElement).value === 'bruno'));
    await global.getByTestId('grant-user-input').fill('bruno');
    await global.getByTestId('grant-add-submit').click();
    await global.locator('[data-testid="grant-row"][data-name="bruno"]').waitFor();
    await global.getByLabel('User or group').selectOption('group');
    await global.getByTestId('grant-user-input').fill('qa-team');
    await global.getByTestId('grant-add-submit').click();
    await global.locator('[data-testid="grant-row"][data-name="qa-team"]').waitFor();
    expect((await admin(`${FE}/admin/customfields/10004`)).body).toMatchObject({ userlist: ['bruno'], grouplist: ['qa-team'] });

    await global.getByRole('button', { name: 'Remove user bruno' }).click();
    await global.locator('[data-testid="grant-row"][data-name="bruno"]').waitFor({ state: 'detached' });
    expect((await admin(`${FE}/admin/customfields/10004`)).body).toMatchObject({ userlist: [], grouplist: ['qa-team'] });
  });

  it('shows the API message for an unknown user', async () => {
    await page.goto(`${app.url}/#/admin/10004`);
    const global = page.getByRole('group', { name: 'Global grants' });
    await global.getByTestId('grant-user-input').fill('nobody-here');
    await global.getByTestId('grant-add-submit').click();
    expect(await textOf(global.getByTestId('error-message'))).toMatch(/nobody-here/);
  });

  it('creates, updates and deletes a context, and grants on it', async () => {
    await page.goto(`${app.url}/#/admin/10001`);
    const create = page.locator('.card', { has: page.getByRole('heading', { name: 'New context' }) });
    await create.getByTestId('context-name-input').fill('Tasks only');
    await create.getByLabel('Task', { exact: true }).check();
    // Without a project it would apply to all projects, which the default context already does (the API refuses).
    await create.getByTestId('context-save').click();
    expect(await textOf(create.getByTestId('error-message'))).not.toBe('');
    await create.getByLabel('DEMO — Demo project').check();
    await create.getByTestId('context-save').click();
    const card = page.locator('[data-testid="context-row"]', { hasText: 'Tasks only' });
    await card.waitFor();
    const contexts = (await admin(`${FE}/admin/customfields/10001/contexts?expand=issueTypes`)).body as { contextId: number; contextName: string; issueTypes: { issueTypeName: string }[] }[];
    const made = contexts.find((c) => c.contextName === 'Tasks only')!;
    expect(made.issueTypes.map((i) => i.issueTypeName)).toEqual(['Task']);

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByTestId('context-name-input').fill('Tasks and bugs');
    await card.getByLabel('Bug', { exact: true }).check();
    await card.getByTestId('context-save').click();
    const renamed = page.locator(`[data-testid="context-row"][data-context-id="${made.contextId}"]`, { hasText: 'Tasks and bugs' });
    await renamed.waitFor();
    const updated = (await admin(`${FE}/admin/customfields/10001/contexts?expand=issueTypes`)).body.find((c: { contextId: number }) => c.contextId === made.contextId);
    expect(updated.contextName).toBe('Tasks and bugs');

    const grants = renamed.getByRole('group', { name: 'Grants on Tasks and bugs' });
    await grants.getByTestId('grant-user-input').fill('bruno');
    await grants.getByTestId('grant-add-submit').click();
    await grants.locator('[data-testid="grant-row"][data-name="bruno"]').waitFor();
    const perms = (await admin(`${FE}/admin/customfields/10001/contexts/permissions`)).body.find((p: { contextId: number }) => p.contextId === made.contextId);
    expect(perms.userlist).toEqual(['bruno']);

    await renamed.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('confirm').click();
    await renamed.waitFor({ state: 'detached' });
    const after = (await admin(`${FE}/admin/customfields/10001/contexts`)).body.map((c: { contextId: number }) => c.contextId);
    expect(after).not.toContain(made.contextId);
  });

  it('offers no delete on the default context (listed first), which the API would refuse', async () => {
    await page.goto(`${app.url}/#/admin/10001`);
    const first = page.getByTestId('context-row').first();
    await first.getByText('Default context').waitFor();
    expect(await first.getByRole('button', { name: 'Delete' }).count()).toBe(0);
  });

  it('switches the only-admins-may-delete setting', async () => {
    await page.goto(`${app.url}/#/admin`);
    const box = page.getByTestId('setting-only-admins-delete');
    await box.check();
    await expect_setting(true);
    await box.uncheck();
    await expect_setting(false);
  });

  async function expect_setting(value: boolean) {
    for (let i = 0; i < 50; i++) {
      if ((await admin(`${FE}/admin/settings`)).body.onlyAdminsMayDeleteOptions === value) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await admin(`${FE}/admin/settings`)).body.onlyAdminsMayDeleteOptions).toBe(value);
  }

  it('logged no console errors other than the refusals the tests provoked (400)', () => {
    expect(unexpected(w.problems, [400])).toEqual([]);
  });
});
