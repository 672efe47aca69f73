import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, openPage, signInThroughForm, textOf, unexpected, useSignedInBrowser, type WebApp, type WebPage } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { ADMIN, basic } from '../helpers/test-app.ts';
import type { Browser } from 'playwright-core';

const FE = '/rest/trackercustomfieldeditorplugin/1';

/** Issue 29: the administrator's home, people and access, plain words, accessibility (axe-core), dark theme, 390 px. */
describe.skipIf(!hasChromium)('the administrators’ web interface', () => {
  let app: WebApp, w: WebPage, page: Page, browser: Browser;
  const rest = (method: 'get' | 'delete', path: string) => app.http[method](path).set('Authorization', app.adminAuth);
  /** Goes to a screen by its hash and waits for an element of it. */
  const visit = async (hash: string, testId: string) => {
    await page.goto(`${app.url}/#/${hash}`);
    await page.getByTestId(testId).first().waitFor();
  };
  const noSerious = async (where: string) => expect(await seriousViolations(page), where).toEqual([]);

  useSignedInBrowser(
    { user: ADMIN, env: { MAX_AUTH_ATTEMPTS: '3', LOCKOUT_MINUTES: '30' }, prepare: (a) => a.createUser('olga', { password: 'olga-pw' }) },
    (s) => ({ app, webPage: w, page, browser } = s),
  );

  it('lands on the home with every demo field, its contexts and who may edit, and opens an editor', async () => {
    await page.getByTestId('admin-home-field').first().waitFor();
    expect(await page.getByTestId('nav-admin-home').getAttribute('aria-current')).toBe('page');
    const shown = await page.getByTestId('admin-home-field').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset.fieldId)));
    const all = (await rest('get', `${FE}/admin/customfields`).expect(200)).body.map((f: { fieldId: number }) => f.fieldId);
    expect([...shown].sort()).toEqual([...all].sort());
    const single = page.locator('[data-testid="admin-home-field"][data-field-id="10000"]');
    expect(await single.textContent()).toMatch(/alice/);
    expect(await single.textContent()).toMatch(/DEMO project bugs/);
    await noSerious('home');
    // No grant reaches admin yet: the button says what it grants, then grants it (A4, in the event log) and opens the editor.
    await single.getByTestId('admin-home-open-editor').click();
    expect(await textOf(page.getByRole('dialog'))).toMatch(/lasting grant on every context/);
    await noSerious('grant confirmation');
    await page.getByTestId('confirm').click();
    await page.getByTestId('option-row').first().waitFor();
    expect(page.url()).toMatch(/#\/fields\/10000$/);
    await noSerious('option editor');
  });

  it('says what went wrong in plain words in the option editor', async () => {
    await page.getByTestId('option-new').fill('Medium');
    await page.getByTestId('option-new-submit').click();
    expect(await textOf(page.getByTestId('error-message'))).toBe('An option named Medium already exists in this list. Choose another name.');
    await page.getByTestId('option-new').fill('x'.repeat(256));
    await page.getByTestId('option-new-submit').click();
    await page.waitForFunction(() => /1 to 255/.test(document.querySelector('[data-testid="error-message"]')?.textContent ?? ''));
    const text = await textOf(page.getByTestId('error-message'));
    expect(text).toMatch(/^The option name must be 1 to 255 characters long/);
    expect(text).not.toMatch(/must be a text of|does already exist|id 1000/);
  });

  it('creates a user by keyboard, adds it to a group, resets its password, unlocks it and revokes its token', async () => {
    await visit('users', 'user-create');
    await page.getByTestId('user-create-name').focus();
    await page.keyboard.type('pia');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Pia Paulsen');
    await page.keyboard.press('Tab');
    await page.keyboard.type('pia@example.org');
    await page.keyboard.press('Tab');
    await page.keyboard.type('first-pw');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="user-row"][data-user-name="pia"]').waitFor();
    await app.http.get('/rest/api/2/myself').set('Authorization', basic('pia', 'first-pw')).expect(200);
    await noSerious('users');

    // The same name again: the sentence, not the wire's.
    await page.getByTestId('user-create-name').fill('PIA');
    await page.getByTestId('user-create-password').fill('x');
    await page.getByTestId('user-create-submit').click();
    expect(await textOf(page.getByTestId('error-message'))).toMatch(/^A user with this name already exists/);

    await visit('groups', 'group-row');
    await noSerious('groups');
    await page.locator('[data-testid="group-row"][data-group-name="developers"] a').click();
    await page.getByTestId('group-member-name').fill('pia');
    await page.getByTestId('group-member-submit').click();
    await page.locator('[data-testid="member-row"][data-user-name="pia"]').waitFor();
    await noSerious('group');
    const me = (await app.http.get('/rest/api/2/myself').set('Authorization', basic('pia', 'first-pw')).expect(200)).body;
    expect(me.groups.items.map((g: { name: string }) => g.name)).toContain('developers');

    const token = (await app.tokenFor('pia')).slice('Bearer '.length);
    await app.http.get('/rest/api/2/myself').set('Authorization', `Bearer ${token}`).expect(200);
    for (let i = 0; i < 3; i++) await app.http.get('/rest/api/2/myself').set('Authorization', basic('pia', 'wrong')).expect(401);

    await visit('users/pia', 'user-tokens');
    expect(await textOf(page.locator('.state-line'))).toMatch(/Locked until/);
    await noSerious('user');
    await page.getByTestId('user-new-password').fill('second-pw');
    await page.getByTestId('user-reset-password').click();
    await page.getByText(/The password of pia is changed/).waitFor();
    await page.getByTestId('user-unlock').click();
    await page.getByText(/pia is unlocked/).waitFor();
    await app.http.get('/rest/api/2/myself').set('Authorization', basic('pia', 'second-pw')).expect(200);

    const row = page.getByTestId('token-row');
    expect(await row.textContent()).not.toMatch(/never$/);
    await row.getByTestId('token-revoke').click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toMatch(/token test of pia is removed/);
    await noSerious('confirm dialog');
    // Escape cancels; the token still works.
    await page.keyboard.press('Escape');
    await app.http.get('/rest/api/2/myself').set('Authorization', `Bearer ${token}`).expect(200);
    await row.getByTestId('token-revoke').click();
    await page.getByTestId('confirm').click();
    await page.getByText(/The token is revoked/).waitFor();
    await app.http.get('/rest/api/2/myself').set('Authorization', `Bearer ${token}`).expect(401);

    // Every change is in the audit trail, with admin as actor.
    const kinds = (await rest('get', `${FE}/maintenance/event_log_entries?actor=admin&maxResults=100`).expect(200)).body.values.map((e: { kind: string }) => e.kind);
    for (const k of ['user.created', 'group.member_added', 'user.password_set', 'user.unlocked', 'token.revoked']) expect(kinds).toContain(k);
  });

  it('deactivates and deletes a user after naming what goes', async () => {
    await visit('users/olga', 'user-save');
    await page.getByTestId('user-active').uncheck();
    await page.getByTestId('user-save').click();
    await page.getByText(/cannot log in while deactivated/).waitFor();
    await app.http.get('/rest/api/2/myself').set('Authorization', basic('olga', 'olga-pw')).expect(401);
    await page.getByTestId('user-delete').click();
    expect(await page.getByRole('dialog').textContent()).toMatch(/olga is deleted with 0 access tokens, its membership in 1 group \(users\)/);
    await page.getByTestId('confirm').click();
    await page.getByTestId('user-create').waitFor();
    await rest('get', '/rest/api/2/user?username=olga').expect(404);
  });

  it('changes the own password with the current one and stays signed in', async () => {
    await app.createUser('paul', { password: 'paul-pw' });
    const p = await openPage(browser);
    try {
      await signInThroughForm(p.page, app.url, 'paul', 'paul-pw', '#/password');
      await p.page.getByTestId('password-current').fill('wrong');
      await p.page.getByTestId('password-new').fill('paul-new');
      await p.page.getByTestId('password-repeat').fill('paul-new');
      await p.page.getByTestId('password-submit').click();
      expect(await textOf(p.page.getByTestId('error-message'))).toMatch(/^The current password is not correct/);
      await p.page.getByTestId('password-current').fill('paul-pw');
      await p.page.getByTestId('password-submit').click();
      await p.page.getByText(/Your password is changed/).waitFor();
      await app.http.get('/rest/api/2/myself').set('Authorization', basic('paul', 'paul-new')).expect(200);
      // Still signed in: the screen signed in again with the new password.
      await p.page.getByTestId('nav-tokens').click();
      await p.page.getByTestId('token-create-name').waitFor();
      expect(await p.page.getByTestId('nav-users').count()).toBe(0);
      // A field without a grant, in plain words.
      await p.page.goto(`${app.url}/#/fields/10000`);
      expect(await textOf(p.page.getByTestId('error-message'))).toMatch(/^You have no right to edit this field’s options/);
      // The lock's duration on the sign-in form.
      await p.page.getByTestId('logout').click();
      for (let i = 0; i < 3; i++) await app.http.get('/rest/api/2/myself').set('Authorization', basic('paul', 'nope')).expect(401);
      await p.page.getByTestId('login-username').fill('paul');
      await p.page.getByTestId('login-password').fill('paul-new');
      await p.page.getByTestId('login-submit').click();
      expect(await textOf(p.page.getByTestId('error-message'))).toMatch(/locked after too many failed logins. It unlocks by itself 30 minutes after it was locked/);
      expect(unexpected(p.problems, [401, 403])).toEqual([]);
    } finally {
      await p.context.close();
    }
  });

  it('shows names, one date format, no endpoint ids or operation names, and no delete on the default context', async () => {
    await visit('maintenance', 'operation-run');
    await page.locator('[data-testid="operation-run"][data-operation="MaintenanceActionForceFailRunningAndScheduledJobs"]').click();
    await page.getByTestId('confirm').click();
    expect(await textOf(page.getByTestId('operation-notice'))).toBe('Every scheduled and running job is now marked as failed.');
    expect(await page.locator('main').textContent()).not.toMatch(/MaintenanceAction|Job[A-Z]\w+/);
    await noSerious('maintenance');

    await visit('maintenance/events', 'event-row');
    const granted = page.locator('[data-testid="event-row"][data-kind="grant.granted"]').first();
    expect(await granted.textContent()).toMatch(/Grant given/);
    expect(await granted.textContent()).toMatch(/Demo Single Select/);
    const times = await page.locator('[data-testid="event-row"] time').allTextContents();
    const local = new Date().toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    // One format: the locale's, with the time zone named, as a fresh formatting of now shows it.
    expect(times.every((t) => t.split(' ').length === local.split(' ').length && t.endsWith(local.split(' ').pop()!))).toBe(true);
    await noSerious('event log');

    await visit('codeboxes/DEMO/1001', 'codebox-block');
    await noSerious('code boxes');
    expect(await page.locator('main').textContent()).not.toMatch(/\b[EUAMC]\d{1,2}\b/);

    await visit('admin/10001', 'context-row');
    expect(await page.getByTestId('context-row').first().getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByTestId('admin-field-open-editor').getAttribute('href')).toBe('#/fields/10001');
    await noSerious('field administration');
    expect(unexpected(w.problems, [400, 401, 403])).toEqual([]);
  });

  it('has no serious axe violation in the dark theme; the toggle sets data-theme; the layout holds at 390 px', async () => {
    const root = () => page.evaluate(() => document.documentElement.dataset.theme);
    const before = await root();
    await page.getByTestId('theme').click();
    expect(await root()).toBe(before === 'dark' ? 'light' : 'dark');
    if ((await root()) !== 'dark') await page.getByTestId('theme').click();
    for (const [hash, id] of [
      ['home', 'admin-home-field'],
      ['users', 'user-row'],
      ['users/pia', 'user-tokens'],
      ['groups/developers', 'member-row'],
      ['tokens', 'token-create-name'],
      ['password', 'password-current'],
    ] as const) {
      await visit(hash, id);
      await noSerious(`${hash}, dark`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [hash, id] of [
      ['home', 'admin-home-field'],
      ['users', 'user-row'],
      ['users/pia', 'user-tokens'],
      ['groups', 'group-row'],
    ] as const) {
      await visit(hash, id);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${hash} at 390 px`).toBeLessThanOrEqual(390);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('theme').click();
    expect(await root()).toBe('light');
  });

  it('has no serious axe violation on the sign-in form, and a dark system gets the dark theme', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    try {
      const p = await context.newPage();
      await p.goto(`${app.url}/`);
      await p.getByTestId('login-username').waitFor();
      expect(await p.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(await seriousViolations(p)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
