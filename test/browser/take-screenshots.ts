// Screenshots of every screen at 1280×800 and at a 390-pixel phone width, for docs/web-interface.md.
// Run: npx tsx test/browser/take-screenshots.ts   (builds nothing: run `npm run build` first)
// Starts a real server on the demo data in memory, signs in as alice (editor) and admin.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { startServerProcess } from '../helpers/server-process.ts';

const OUT = path.resolve(import.meta.dirname, '../../docs/screenshots');
const WIDTHS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
];

// A short job poll, so the job scheduled for the maintenance screenshot has run when it is taken.
const server = await startServerProcess({ DATA_DIR: 'memory://', DEMO: '1', ADMIN_PASSWORD: 'admin', JOBS_POLL_MS: '200' });
// A few event-log entries for the maintenance screenshots: an option created and renamed by alice over REST.
{
  const options = `${server.url}/rest/trackercustomfieldeditorplugin/1/user/customfields/10000/contexts/default/options`;
  const headers = { Authorization: `Basic ${Buffer.from('alice:alice').toString('base64')}`, 'Content-Type': 'application/json' };
  const made = (await (await fetch(options, { method: 'POST', headers, body: JSON.stringify({ optionvalue: 'Urgent' }) })).json()) as { id: number };
  await fetch(`${options}/${made.id}`, { method: 'PUT', headers, body: JSON.stringify({ optionvalue: 'Very urgent' }) });
}
const browser = await launchBrowser();
try {
  for (const size of WIDTHS) {
    const shot = async (page: Page, name: string) => {
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(OUT, `${name}-${size.name}.png`), fullPage: size.name === '390' });
    };
    const as = async (user: string, password: string) => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const page = await context.newPage();
      page.on('dialog', (d) => void d.dismiss());
      await page.goto(`${server.url}/`);
      const started = Date.now();
      await page.getByTestId('login-username').fill(user);
      await page.getByTestId('login-password').fill(password);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('logout').waitFor();
      console.log(`${size.name}: signed in as ${user} in ${Date.now() - started} ms`);
      return { page, context };
    };

    {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(`${server.url}/`);
      await page.getByTestId('login-username').waitFor();
      console.log(`${size.name}: sign-in form interactive ${Date.now() - started} ms after navigation`);
      await shot(page, 'sign-in');
      await context.close();
    }

    const { page, context } = await as('alice', 'alice');
    await page.getByTestId('field-row').first().waitFor();
    await shot(page, 'fields');
    await page.goto(`${server.url}/#/fields/10002/default`);
    await page.locator('[data-option-id="10030"]').getByRole('button', { name: 'Children' }).click();
    await page.locator('[data-option-id="10031"]').waitFor();
    await page.getByTestId('option-add-input').last().fill('Europe');
    await page.getByTestId('option-add-submit').last().click();
    await page.getByTestId('error-message').waitFor();
    await shot(page, 'option-editor');
    await page.getByTestId('nav-tokens').click();
    await page.getByTestId('token-create-name').fill('provisioning');
    await page.getByTestId('token-create-submit').click();
    await page.getByTestId('token-raw').waitFor();
    await shot(page, 'tokens');
    await page.getByTestId('nav-codeboxes').click();
    await page.getByTestId('content-id-input').waitFor();
    await shot(page, 'codeboxes');
    await page.goto(`${server.url}/#/codeboxes/DEMO/1001`);
    await page.getByTestId('codebox-block').first().locator('pre').waitFor();
    await page.locator('details.curl').first().evaluate((d) => ((d as HTMLDetailsElement).open = true));
    await shot(page, 'codebox-content');
    await context.close();

    const admin = await as('admin', 'admin');
    await admin.page.getByTestId('nav-admin').click();
    await admin.page.getByTestId('field-row').first().waitFor();
    await shot(admin.page, 'admin-fields');
    await admin.page.goto(`${server.url}/#/admin/10000`);
    await admin.page.getByTestId('grant-row').first().waitFor();
    await shot(admin.page, 'admin-field');
    await admin.page.getByTestId('nav-maintenance').click();
    await admin.page.locator('[data-testid="operation-run"][data-operation="JobIndexCustomFieldSearchTable"]').click();
    await admin.page.locator('[data-testid="job-row"][data-job-name="JobIndexCustomFieldSearchTable"][data-status="SUCCESS"]').waitFor({ timeout: 20_000 });
    await shot(admin.page, 'maintenance-jobs');
    await admin.page.getByTestId('maintenance-tab-events').click();
    await admin.page.getByTestId('event-row').first().waitFor();
    await shot(admin.page, 'maintenance-events');
    await admin.context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
