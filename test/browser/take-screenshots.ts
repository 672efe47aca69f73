// Screenshots of every screen at 1280×800 and at a 390-pixel phone width, in the light and the dark theme (the
// browser's prefers-color-scheme; dark ones end in -dark), for docs/web-interface.md.
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
const THEMES = ['light', 'dark'] as const;

// A short job poll, so the job scheduled for the maintenance screenshot has run when it is taken.
const server = await startServerProcess({ DATA_DIR: 'memory://', DEMO: '1', ADMIN_PASSWORD: 'admin', JOBS_POLL_MS: '200', WEBHOOK_ALLOWLIST: 'https://hooks.example.com/' }, 180_000);
let webhookId = 0;
// A few event-log entries for the maintenance screenshots: an option created and renamed by alice over REST.
{
  const options = `${server.url}/rest/trackercustomfieldeditorplugin/1/user/customfields/10000/contexts/default/options`;
  const headers = { Authorization: `Basic ${Buffer.from('alice:alice').toString('base64')}`, 'Content-Type': 'application/json' };
  const made = (await (await fetch(options, { method: 'POST', headers, body: JSON.stringify({ optionvalue: 'Urgent' }) })).json()) as { id: number };
  await fetch(`${options}/${made.id}`, { method: 'PUT', headers, body: JSON.stringify({ optionvalue: 'Very urgent' }) });
  // A token of alice, used once, for the user screen's token list with its last use.
  const token = (await (await fetch(`${server.url}/rest/pat/latest/tokens`, { method: 'POST', headers, body: JSON.stringify({ name: 'laptop', expirationDuration: 90 }) })).json()) as { rawToken: string };
  await fetch(`${server.url}/rest/api/2/myself`, { headers: { Authorization: `Bearer ${token.rawToken}` } });
  const asAdmin = { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`, 'Content-Type': 'application/json' };
  // The default picker's screenshot: alice may edit the multi select, which gets 3,000 more options.
  const fe = `${server.url}/rest/trackercustomfieldeditorplugin/1`;
  await fetch(`${fe}/admin/customfields/10003`, { method: 'PUT', headers: asAdmin, body: JSON.stringify({ userlist: ['alice'], grouplist: [] }) });
  for (let b = 0; b < 3; b++) {
    const create = Array.from({ length: 1000 }, (_, i) => ({ optionvalue: `Shade ${String(b * 1000 + i).padStart(4, '0')}` }));
    const made = await fetch(`${fe}/user/customfields/10003/contexts/default/options/batch`, { method: 'POST', headers, body: JSON.stringify({ create }) });
    if (!made.ok) throw new Error(`options batch: ${made.status} ${await made.text()}`);
  }
  // A subscription limited to one field's context (DEMO project bugs of Demo Single Select), for the webhook
  // list, detail and Edit screenshots. Nothing below changes that context, so no delivery is ever attempted.
  const hook = await fetch(`${server.url}/rest/webhooks/1.0/webhook`, {
    method: 'POST',
    headers: asAdmin,
    body: JSON.stringify({
      name: 'Service desk sync',
      url: 'https://hooks.example.com/service-desk',
      events: ['option_created', 'option_renamed', 'option_deleted', 'default_changed'],
      filters: { customFieldId: 10000, contextId: 10110 },
    }),
  });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);
  webhookId = ((await hook.json()) as { id: number }).id;
}
/** Chooses a menu entry; at the phone width the menu opens behind its button first. */
async function nav(page: Page, testId: string): Promise<void> {
  if (await page.getByTestId('nav-menu').isVisible()) await page.getByTestId('nav-menu').click();
  await page.getByTestId(testId).click();
}

const browser = await launchBrowser();
try {
  for (const [size, theme] of WIDTHS.flatMap((w) => THEMES.map((t) => [w, t] as const))) {
    const suffix = theme === 'dark' ? '-dark' : '';
    const newContext = () => browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: theme });
    // fullPage at the phone width; `viewport`: only what is on the screen (a part below a long list, scrolled to;
    // a dialog, whose backdrop covers the screen, not the whole page).
    const shot = async (page: Page, name: string, viewport = false) => {
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(OUT, `${name}-${size.name}${suffix}.png`), fullPage: size.name === '390' && !viewport });
    };
    const as = async (user: string, password: string) => {
      const context = await newContext();
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
      const context = await newContext();
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
    await page.getByTestId('option-new').fill('Europe');
    await page.getByTestId('option-new-submit').click();
    await page.getByTestId('error-message').waitFor();
    await shot(page, 'option-editor');
    // The sort asks first, naming the list and the order; after it, Undo is offered.
    await page.goto(`${server.url}/#/fields/10000/default`);
    await page.getByTestId('option-row').first().waitFor();
    await page.getByTestId('option-sort').click();
    await page.getByTestId('confirm').waitFor();
    await shot(page, 'confirm-sort', true);
    await page.getByTestId('confirm').click();
    await page.getByTestId('option-undo').waitFor();
    await shot(page, 'option-undo');
    await page.getByTestId('option-undo').click();
    await page.getByText('back in their order').waitFor();
    // The default picker of a multi select with 3,003 options: the chosen ones as chips, a typed query.
    await page.goto(`${server.url}/#/fields/10003/default`);
    const picker = page.getByTestId('default-picker');
    await picker.scrollIntoViewIfNeeded();
    await picker.pressSequentially('shade 15');
    await page.getByRole('option', { name: 'Shade 1500' }).waitFor();
    // At the phone width the default's card comes after the list: scrolled to its top, the suggestions fit below.
    if (size.name === '390') await page.locator('.editor-side').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await shot(page, 'default-picker', true);
    await nav(page, 'nav-tokens');
    await page.getByTestId('token-create-name').fill('provisioning');
    await page.getByTestId('token-create-submit').click();
    await page.getByTestId('token-raw').waitFor();
    await shot(page, 'tokens');
    // Revoked again, so each later screenshot of alice's tokens shows only "laptop" (not one more per round).
    await page.evaluate(async () => {
      const headers = { Accept: 'application/json', 'X-Atlassian-Token': 'no-check' };
      const tokens = (await (await fetch('/rest/pat/latest/tokens', { headers })).json()) as { id: number; name: string }[];
      for (const t of tokens.filter((x) => x.name === 'provisioning')) await fetch(`/rest/pat/latest/tokens/${t.id}`, { method: 'DELETE', headers });
    });
    await nav(page, 'nav-codeboxes');
    await page.getByTestId('content-id-input').waitFor();
    await shot(page, 'codeboxes');
    await page.goto(`${server.url}/#/codeboxes/DEMO/1001`);
    await page.getByTestId('codebox-block').first().locator('pre').waitFor();
    await page.locator('details.curl').first().evaluate((d) => ((d as HTMLDetailsElement).open = true));
    await shot(page, 'codebox-content');
    await context.close();

    const admin = await as('admin', 'admin');
    // An administrator lands on the home: every field, its contexts, who may edit, the way into the editor.
    await admin.page.getByTestId('admin-home-field').first().waitFor();
    await admin.page.waitForFunction(() => /DEMO project bugs/.test(document.querySelector('main')?.textContent ?? ''));
    await shot(admin.page, 'admin-home');
    // "Grant me and open editor" says what it grants before it does (cancelled: the home stays as it is).
    await admin.page.locator('[data-testid="admin-home-field"][data-field-id="10003"]').getByTestId('admin-home-open-editor').click();
    await admin.page.getByTestId('confirm').waitFor();
    await shot(admin.page, 'confirm-grant', true);
    await admin.page.getByTestId('confirm-cancel').click();
    if (size.name === '390') {
      await admin.page.getByTestId('nav-menu').click();
      await shot(admin.page, 'menu-open');
      await admin.page.getByTestId('nav-menu').click();
    }
    await nav(admin.page, 'nav-webhooks');
    await admin.page.getByTestId('webhook-form').waitFor();
    await admin.page.getByTestId('webhook-url').fill('https://hooks.example.com/x');
    await admin.page.getByTestId('webhook-field').fill('select');
    await admin.page.getByTestId('webhook-url-check').locator('span').waitFor();
    await shot(admin.page, 'webhooks');
    await admin.page.goto(`${server.url}/#/webhooks/${webhookId}`);
    await admin.page.getByTestId('webhook-detail-field').getByText('DEMO project bugs').waitFor();
    await shot(admin.page, 'webhook-detail');
    await admin.page.getByTestId('webhook-edit').click();
    await admin.page.getByTestId('webhook-save').waitFor();
    await admin.page.getByTestId('webhook-url-check').locator('span').waitFor();
    await shot(admin.page, 'webhook-edit');
    await admin.page.getByRole('button', { name: 'Cancel' }).click();
    await nav(admin.page, 'nav-users');
    await admin.page.getByTestId('user-row').first().waitFor();
    await shot(admin.page, 'users');
    await admin.page.goto(`${server.url}/#/users/alice`);
    await admin.page.getByTestId('token-row').first().waitFor();
    await shot(admin.page, 'user');
    await admin.page.getByTestId('user-delete').click();
    await admin.page.getByTestId('confirm').waitFor();
    await shot(admin.page, 'confirm-delete-user', true);
    await admin.page.getByTestId('confirm-cancel').click();
    await nav(admin.page, 'nav-groups');
    await admin.page.getByTestId('group-row').first().waitFor();
    await shot(admin.page, 'groups');
    await admin.page.goto(`${server.url}/#/groups/developers`);
    await admin.page.getByTestId('member-row').first().waitFor();
    await shot(admin.page, 'group');
    await nav(admin.page, 'nav-password');
    await admin.page.getByTestId('password-current').fill('wrong');
    await admin.page.getByTestId('password-new').fill('x');
    await admin.page.getByTestId('password-repeat').fill('x');
    await admin.page.getByTestId('password-submit').click();
    await admin.page.getByTestId('error-message').waitFor();
    await shot(admin.page, 'password');
    // That wrong current password counted as a failed login: forget it, so the next sign-ins are not locked.
    await fetch(`${server.url}/rest/api/2/user/lockout?username=admin`, { method: 'DELETE', headers: { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` } });
    await admin.page.goto(`${server.url}/#/admin`);
    await admin.page.getByTestId('field-row').first().waitFor();
    await shot(admin.page, 'admin-fields');
    await admin.page.goto(`${server.url}/#/admin/10000`);
    await admin.page.getByTestId('grant-row').first().waitFor();
    await shot(admin.page, 'admin-field');
    await nav(admin.page, 'nav-maintenance');
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
