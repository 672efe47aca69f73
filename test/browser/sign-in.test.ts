import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, openPage, signInThroughForm, textOf, unexpected, useAppAndBrowser, type WebApp } from '../helpers/browser.ts';
import { uniq } from '../helpers/test-app.ts';

describe.skipIf(!hasChromium)('sign-in, sign-out and rights in the browser', () => {
  let app: WebApp, browser: Browser;
  useAppAndBrowser({ env: { MAX_AUTH_ATTEMPTS: '3' } }, (s) => ({ app, browser } = s));

  it('serves the page and its assets from the app itself, with nothing from another origin', async () => {
    const { page, context, problems } = await openPage(browser);
    const origins = new Set<string>();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    await page.goto(`${app.url}/`);
    await page.getByTestId('login-username').waitFor();
    expect([...origins]).toEqual([app.url]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs in, shows the fields, and signs out; the session is over on the server too', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'alice', 'alice');
    await page.getByTestId('field-row').first().waitFor();
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'JSESSIONID')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', secure: false });
    // HttpOnly: the page's scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('JSESSIONID');
    const cookieHeader = `JSESSIONID=${session.value}`;
    await app.http.get('/rest/api/2/myself').set('Cookie', cookieHeader).expect(200);

    await page.getByTestId('logout').click();
    await page.getByTestId('login-username').waitFor();
    await app.http.get('/rest/api/2/myself').set('Cookie', cookieHeader).expect(401);
    // A reload stays signed out.
    await page.reload();
    await page.getByTestId('login-username').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps the user signed in across a reload', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'alice', 'alice');
    await page.reload();
    await page.getByTestId('logout').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the same message for a wrong password and an unknown user, then locks the name after MAX_AUTH_ATTEMPTS', async () => {
    const user = await app.createUser(uniq('lockme'));
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${app.url}/`);
    const attempt = async (name: string, password: string) => {
      await page.getByTestId('login-username').fill(name);
      await page.getByTestId('login-password').fill(password);
      await page.getByTestId('login-submit').click();
      const message = page.getByTestId('error-message');
      await message.waitFor();
      const text = await message.textContent();
      // Wait until the form is usable again before the next attempt.
      await page.getByTestId('login-submit').and(page.locator(':not([disabled])')).waitFor();
      return text;
    };
    const wrong = await attempt(user.name, 'wrong-1');
    const unknown = await attempt(uniq('nobody'), 'wrong');
    expect(wrong).toBe(unknown);
    expect(wrong).toBe('The user name or the password is not correct.');
    await attempt(user.name, 'wrong-2');
    await attempt(user.name, 'wrong-3');
    // Locked: even the right password is refused, through the form and through Basic.
    expect(await attempt(user.name, user.password)).toMatch(/locked/);
    const basic = await app.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(401);
    expect(basic.headers['x-seraph-loginreason']).toBe('AUTHENTICATION_DENIED');
    expect(await page.getByTestId('logout').count()).toBe(0);
    expect(unexpected(problems, [401])).toEqual([]);
    await context.close();
  });

  it('refuses a state-changing request that has the session cookie but not the XSRF header (a forged one)', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'alice', 'alice');
    const result = await page.evaluate(async () => {
      const forged = await fetch('/rest/pat/latest/tokens', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'forged' }) });
      const proper = await fetch('/rest/pat/latest/tokens', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Atlassian-Token': 'no-check' },
        body: JSON.stringify({ name: 'proper' }),
      });
      return { forged: forged.status, forgedBody: await forged.json(), proper: proper.status };
    });
    expect(result.forged).toBe(403);
    expect(result.forgedBody.errorMessages[0]).toMatch(/XSRF check failed/);
    expect(result.proper).toBe(201);
    const tokens = await app.http.get('/rest/pat/latest/tokens').set('Authorization', 'Basic ' + Buffer.from('alice:alice').toString('base64')).expect(200);
    const names = tokens.body.map((t: { name: string }) => t.name);
    expect(names).toContain('proper');
    expect(names).not.toContain('forged');
    expect(unexpected(problems, [403])).toEqual([]);
    await context.close();
  });

  it('never shows administration to a user without administrator rights; the API refuses it anyway', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'alice', 'alice');
    expect(await page.getByTestId('nav-admin-home').count()).toBe(0);
    await page.goto(`${app.url}/#/admin`);
    expect(await textOf(page.getByTestId('error-message'))).toMatch(/administrators only/);
    expect(await page.getByTestId('field-row').count()).toBe(0);
    await page.goto(`${app.url}/#/admin/10000`);
    expect(await textOf(page.getByTestId('error-message'))).toMatch(/administrators only/);
    expect(await page.getByTestId('grant-user-input').count()).toBe(0);
    // The same session over REST: 403.
    const cookie = (await context.cookies()).find((c) => c.name === 'JSESSIONID')!;
    const res = await app.http.get('/rest/trackercustomfieldeditorplugin/1/admin/customfields?maxResults=5').set('Cookie', `JSESSIONID=${cookie.value}`).expect(403);
    expect(res.body.subCode).toBe(403000);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the API refusal for a field the user holds no grant on, with no option editor', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'alice', 'alice');
    // 10003 (multi select): alice holds no grant on it.
    await page.getByTestId('field-row').first().waitFor();
    expect(await page.locator('[data-testid="field-row"][data-field-id="10003"]').count()).toBe(0);
    await page.goto(`${app.url}/#/fields/10003`);
    expect(await textOf(page.getByTestId('error-message'))).toMatch(/^You have no right to edit this field’s options/);
    expect(await page.getByTestId('option-row').count()).toBe(0);
    expect(unexpected(problems, [403])).toEqual([]);
    await context.close();
  });

  it('shows the fields home with their administration to administrators', async () => {
    const { page, context } = await openPage(browser);
    await signInThroughForm(page, app.url, 'admin', 'admin-secret');
    await page.getByTestId('nav-admin-home').click();
    await page.getByTestId('admin-home-field').first().waitFor();
    await page.goto(`${app.url}/#/admin`);
    await page.getByTestId('field-row').first().waitFor();
    await context.close();
  });
});

describe.skipIf(!hasChromium)('the interface under a context path', () => {
  let app: WebApp, browser: Browser;
  useAppAndBrowser({ contextPath: '/tracker' }, (s) => ({ app, browser } = s));

  it('serves the page under the context path and keeps the cookie there', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInThroughForm(page, app.url, 'alice', 'alice');
    await page.getByTestId('field-row').first().waitFor();
    const session = (await context.cookies()).find((c) => c.name === 'JSESSIONID')!;
    expect(session.path).toBe('/tracker');
    await page.getByTestId('nav-tokens').click();
    await page.getByTestId('token-create-name').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
