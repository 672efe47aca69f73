import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, textOf, unexpected, useSignedInBrowser, type WebApp, type WebPage } from '../helpers/browser.ts';
import { basic } from '../helpers/test-app.ts';

const ALICE = basic('alice', 'alice');
const MACRO = '5f3c2a4e-1d2b-4c6a-9e8f-000000001001';

describe.skipIf(!hasChromium)('access tokens and code boxes in the browser (alice, demo data)', () => {
  let app: WebApp, w: WebPage, page: Page;
  const tokens = async () => (await app.http.get('/rest/pat/latest/tokens').set('Authorization', ALICE).expect(200)).body as { id: number; name: string; expiringAt?: string; scope?: string }[];

  useSignedInBrowser({ user: { name: 'alice', password: 'alice' } }, (s) => ({ app, webPage: w, page } = s));

  it('creates a token with a name and an expiry, shows the raw token once, and it works as Bearer', async () => {
    await page.getByTestId('nav-tokens').click();
    await page.getByTestId('token-create-name').fill('laptop');
    await page.getByTestId('token-create-days').fill('30');
    await page.getByTestId('token-create-submit').click();
    const raw = await textOf(page.getByTestId('token-raw'));
    expect(raw).toMatch(/^[A-Za-z0-9_-]{44}$/);
    const me = await app.http.get('/rest/api/2/myself').set('Authorization', `Bearer ${raw}`).expect(200);
    expect(me.body.name).toBe('alice');
    const made = (await tokens()).find((t) => t.name === 'laptop')!;
    const days = (new Date(made.expiringAt!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);
    await page.locator(`[data-testid="token-row"][data-token-id="${made.id}"]`).waitFor();
    // Shown once: after a reload the list has it, the raw token is gone.
    await page.reload();
    await page.locator(`[data-testid="token-row"][data-token-id="${made.id}"]`).waitFor();
    expect(await page.getByTestId('token-raw').count()).toBe(0);
    expect(await page.content()).not.toContain(raw);
  });

  it('revokes a token: it stops working at once', async () => {
    await page.getByTestId('nav-tokens').click();
    await page.getByTestId('token-create-name').fill('short-lived');
    await page.getByTestId('token-create-submit').click();
    const raw = await textOf(page.getByTestId('token-raw'));
    const id = (await tokens()).find((t) => t.name === 'short-lived')!.id;
    await page.locator(`[data-testid="token-row"][data-token-id="${id}"] [data-testid="token-revoke"]`).click();
    await page.getByTestId('confirm').click();
    await page.locator(`[data-testid="token-row"][data-token-id="${id}"]`).waitFor({ state: 'detached' });
    await app.http.get('/rest/api/2/myself').set('Authorization', `Bearer ${raw}`).expect(401);
  });

  it('creates a read-only token only where the server offers them, and never leaves a writing one behind', async () => {
    await page.getByTestId('nav-tokens').click();
    await page.reload();
    await page.getByTestId('token-create-name').fill('read-only');
    await page.getByTestId('token-create-scope').selectOption('read');
    await page.getByTestId('token-create-submit').click();
    await page.locator('[data-testid="token-raw"], [data-testid="error-message"]').first().waitFor();
    const made = (await tokens()).find((t) => t.name === 'read-only');
    if (made) {
      // A server with scopes (the hardening issue): the token is read-only.
      expect(made.scope).toBe('read');
      const raw = await textOf(page.getByTestId('token-raw'));
      await app.http.post('/rest/pat/latest/tokens').set('Authorization', `Bearer ${raw}`).send({ name: 'x' }).expect(403);
    } else {
      expect(await textOf(page.getByTestId('error-message'))).toMatch(/does not offer read-only tokens/);
    }
  });

  it('shows the spaces the user may read, or the API refusal where the list does not exist yet', async () => {
    await page.getByTestId('nav-codeboxes').click();
    const res = await app.http.get('/rest/api/space').set('Authorization', ALICE);
    if (res.status === 200) {
      await page.locator('[data-testid="space-row"][data-key="DEMO"] a').click();
      await page.locator('[data-testid="content-row"][data-content-id="1001"]').waitFor();
      // The restricted child page 1004 is not listed for alice.
      expect(await page.locator('[data-testid="content-row"][data-content-id="1004"]').count()).toBe(0);
    } else {
      expect(await textOf(page.getByTestId('error-message'))).toBe(res.body.message);
    }
  });

  it("shows every block of a content's code box with its text, downloadable, with curl lines for E1-E3", async () => {
    await page.getByTestId('nav-codeboxes').click();
    await page.getByTestId('content-id-input').fill('1001');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByTestId('codebox-block').first().waitFor();
    const keys = await page.getByTestId('codebox-block').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key));
    const list = await app.http.get(`/rest/advancedcodeblocks/1/download_list/json?macroId=${MACRO}&contentId=1001`).set('Authorization', ALICE).expect(200);
    expect(keys).toEqual(list.body.codeBlocks.map((b: { key: string }) => b.key));

    const block = page.locator('[data-testid="codebox-block"][data-key="dGVzdHN5c3RlbSAx"]');
    const e1 = await app.http.get(`/rest/advancedcodeblocks/1/download_code/plain_text?key=dGVzdHN5c3RlbSAx&macroId=${MACRO}&contentId=1001`).set('Authorization', ALICE).expect(200);
    await page.waitForFunction(() => document.querySelector('[data-key="dGVzdHN5c3RlbSAx"] pre') !== null);
    expect(await block.locator('pre').textContent()).toBe(e1.text);

    // The download link gives the same bytes, with the session cookie of the page.
    const [download] = await Promise.all([page.waitForEvent('download'), block.getByTestId('codebox-download').click()]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(e1.text);
    expect(download.suggestedFilename()).toBe('testsystem 1.txt');

    // curl lines: E1 per block (Basic and token), E2 and E3 per box.
    const lines = await page.locator('.copy-line code').allTextContents();
    expect(lines).toContain(`curl -u alice '${app.url}/rest/advancedcodeblocks/1/download_code/plain_text?key=dGVzdHN5c3RlbSAx&macroId=${MACRO}&contentId=1001'`);
    expect(lines).toContain(`curl -H "Authorization: Bearer $TOKEN" '${app.url}/rest/advancedcodeblocks/1/download_list/xml?macroId=${MACRO}&contentId=1001'`);
    expect(lines).toContain(`curl -u alice '${app.url}/rest/advancedcodeblocks/1/download_list/json?macroId=${MACRO}&contentId=1001'`);
  });

  it('shows the API refusal for content the user may not view', async () => {
    await page.goto(`${app.url}/#/codeboxes/-/1004`);
    expect(await textOf(page.getByTestId('error-message'))).toBe('This page does not exist, or you have no right to view it.');
    expect(await page.getByTestId('codebox-block').count()).toBe(0);
  });

  it('logged no console errors other than the refusals the tests provoked (404)', () => {
    expect(unexpected(w.problems, [404])).toEqual([]);
  });
});
