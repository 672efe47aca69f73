import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, textOf, unexpected, useSignedInBrowser, type WebApp, type WebPage } from '../helpers/browser.ts';
import { ADMIN } from '../helpers/test-app.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { freePort } from '../helpers/server-process.ts';

const receiver = new WebhookReceiver();
const port = await freePort();
beforeAll(() => receiver.start(port));
afterAll(() => receiver.stop());

describe.skipIf(!hasChromium)('webhooks in the browser (administrators)', () => {
  let app: WebApp, w: WebPage, page: Page;
  useSignedInBrowser(
    { user: ADMIN, env: { WEBHOOK_ALLOWLIST: `http://127.0.0.1:${port}/hooks`, WEBHOOK_POLL_MS: '50' }, prepare: (a) => a.services.webhooks.dispatcher.start() },
    (s) => ({ app, webPage: w, page } = s),
  );

  it('adds a subscription, sends a test event, shows the history with its answer, redelivers and pauses', async () => {
    await page.getByTestId('nav-webhooks').click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByTestId('webhook-name').fill('Browser hook');
    await page.getByTestId('webhook-url').fill(`http://127.0.0.1:${port}/hooks/browser`);
    await page.getByTestId('webhook-create').click();
    const row = page.getByTestId('webhook-row').filter({ hasText: 'Browser hook' });
    expect(await textOf(row.getByTestId('webhook-status'))).toBe('ok');
    await row.getByRole('link', { name: 'Browser hook' }).click();

    await page.getByTestId('webhook-test').click();
    expect(await textOf(page.getByTestId('webhook-notice'))).toMatch(/Test event delivered \(200\)/);
    const delivery = page.getByTestId('delivery-row').first();
    expect(await delivery.getAttribute('data-status')).toBe('delivered');
    expect(await delivery.textContent()).toContain('thanks');
    await receiver.until((r) => r.some((x) => x.body.webhookEvent === 'test'));

    await delivery.getByTestId('delivery-redeliver').click();
    expect(await textOf(page.getByTestId('webhook-notice'))).toMatch(/Redelivered: delivered \(200\)/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="delivery-row"]').length === 2);
    const sent = receiver.received.filter((r) => r.body.webhookEvent === 'test');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['x-atlassian-webhook-identifier']).toBe(sent[0]!.headers['x-atlassian-webhook-identifier']);

    await page.getByTestId('webhook-toggle').click();
    await page.getByTestId('webhook-toggle').and(page.getByText('Enable')).waitFor();
    expect(await textOf(page.getByTestId('webhook-title').getByTestId('webhook-status'))).toBe('paused');
    const hooks = (await app.http.get('/rest/webhooks/1.0/webhook').set('Authorization', app.adminAuth).expect(200)).body;
    expect(hooks).toMatchObject([{ name: 'Browser hook', enabled: false }]);
    expect(unexpected(w.problems)).toEqual([]);
  });

  it('shows the allowlist and checks the URL as it is typed; picks the field by name; edits and keeps the history', async () => {
    await page.getByTestId('nav-webhooks').click();
    await page.getByTestId('webhook-form').waitFor();
    expect(await textOf(page.getByTestId('webhook-allowlist'))).toContain(`http://127.0.0.1:${port}/hooks`);
    await page.getByTestId('webhook-url').fill(`http://127.0.0.1:${port}/elsewhere`);
    await page.getByTestId('webhook-url-check').getByText('is not on the webhook allowlist').waitFor();
    await page.getByTestId('webhook-url').fill(`http://127.0.0.1:${port}/hooks/field`);
    await page.getByTestId('webhook-url-check').getByText('On the allowlist').waitFor();
    await page.getByTestId('webhook-name').fill('Field hook');
    await page.getByTestId('webhook-field').fill('single');
    await page.getByTestId('webhook-field-option').filter({ hasText: 'Demo Single Select' }).click();
    await page.getByTestId('webhook-context').selectOption({ label: 'DEMO project bugs' });
    await page.getByLabel('Option moved').uncheck();
    await page.getByTestId('webhook-create').click();
    const row = page.getByTestId('webhook-row').filter({ hasText: 'Field hook' });
    // The names arrive after the row: read until they are there.
    await expect.poll(() => textOf(row.getByTestId('webhook-row-field'))).toBe('Demo Single Select, context DEMO project bugs');
    expect(await row.textContent()).toContain('Option added, Option renamed');
    const saved = (await app.http.get('/rest/webhooks/1.0/webhook').set('Authorization', app.adminAuth).expect(200)).body.find((h: { name: string }) => h.name === 'Field hook');
    expect(saved.filters).toEqual({ customFieldId: 10000, contextId: 10110 });
    expect(saved.events).not.toContain('option_moved');
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole('link', { name: 'Field hook' }).click();
    await expect.poll(() => textOf(page.getByTestId('webhook-detail-field'))).toBe('Demo Single Select, context DEMO project bugs');
    await page.getByTestId('webhook-test').click();
    await page.getByTestId('delivery-row').first().waitFor();
    expect(await textOf(page.getByTestId('delivery-row').first())).toContain('Test event');
    await page.getByTestId('webhook-edit').click();
    await page.getByTestId('webhook-name').fill('Field hook, edited');
    await page.getByTestId('webhook-url').fill(`http://127.0.0.1:${port}/hooks/edited`);
    await page.getByRole('button', { name: 'Any field instead' }).click();
    await page.getByTestId('webhook-save').click();
    await page.getByTestId('webhook-title').getByText('Field hook, edited').waitFor();
    expect(await textOf(page.getByTestId('webhook-detail-field'))).toBe('every field');
    expect(await page.getByTestId('delivery-row').count()).toBe(1);
    const edited = (await app.http.get(`/rest/webhooks/1.0/webhook/${saved.id}`).set('Authorization', app.adminAuth).expect(200)).body;
    expect(edited).toMatchObject({ name: 'Field hook, edited', url: `http://127.0.0.1:${port}/hooks/edited`, filters: { customFieldId: null, contextId: null } });
    expect((await app.http.get(`/rest/webhooks/1.0/webhook/${saved.id}/deliveries`).set('Authorization', app.adminAuth).expect(200)).body.total).toBe(1);
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      expect(await seriousViolations(page)).toEqual([]);
    }
    expect(unexpected(w.problems)).toEqual([]);
  });

  it('fits the list and the edit form into 390 px: a URL breaks after a slash, nothing scrolls sideways, each event’s box sits beside its words', async () => {
    const made = await app.http
      .post('/rest/webhooks/1.0/webhook')
      .set('Authorization', app.adminAuth)
      .send({ name: 'Narrow hook', url: `http://127.0.0.1:${port}/hooks/service-desk-integration`, events: ['option_created', 'option_renamed'], filters: { customFieldId: 10000, contextId: 10110 } })
      .expect(201);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      // In the list, the URL breaks after a slash, never inside a word: each part between slashes stays on one line.
      await page.goto(`${app.url}/#/webhooks`);
      const url = page.locator(`[data-testid="webhook-row"][data-webhook-id="${made.body.id}"] code`);
      expect(await textOf(url)).toBe(`http://127.0.0.1:${port}/hooks/service-desk-integration`);
      const split = await url.evaluate((code) =>
        [...code.childNodes]
          .filter((n) => n.nodeType === Node.TEXT_NODE)
          .filter((n) => {
            const range = document.createRange();
            range.selectNodeContents(n);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
          })
          .map((n) => n.textContent),
      );
      expect(split).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.goto(`${app.url}/#/webhooks/${made.body.id}`);
      await page.getByTestId('webhook-edit').click();
      await page.getByTestId('webhook-save').waitFor();
      expect(await page.getByTestId('webhook-context').inputValue()).toBe('10110');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const misplaced = await page.locator('.webhook-form fieldset label').evaluateAll((labels) =>
        labels.flatMap((label) => {
          const box = label.querySelector('input')!.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(label.lastChild!);
          const words = range.getBoundingClientRect();
          const beside = box.right <= words.left && Math.abs(box.top + box.height / 2 - (words.top + words.height / 2)) < box.height;
          return beside ? [] : [label.textContent];
        }),
      );
      expect(misplaced).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
