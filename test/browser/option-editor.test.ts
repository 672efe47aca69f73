import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, textOf, unexpected, useSignedInBrowser, type WebApp, type WebPage } from '../helpers/browser.ts';
import { basic } from '../helpers/test-app.ts';

const FE = '/rest/trackercustomfieldeditorplugin/1';
const ALICE = basic('alice', 'alice');
interface Opt {
  id: number;
  optionvalue: string;
  disabled: boolean;
}

describe.skipIf(!hasChromium)('option editor in the browser (alice, demo data)', () => {
  let app: WebApp, w: WebPage, page: Page;

  /** The list as the server holds it (U4 / C1), over REST with Basic. */
  const list = async (fieldId: number, parent?: number, context = 'default'): Promise<Opt[]> => {
    const path = `${FE}/user/customfields/${fieldId}/contexts/${context}/options${parent ? `/${parent}/childoptions` : ''}`;
    return (await app.http.get(path).set('Authorization', ALICE).expect(200)).body;
  };
  const values = async (fieldId: number, parent?: number) => (await list(fieldId, parent)).map((o) => o.optionvalue);
  const row = (id: number) => page.locator(`[data-testid="option-row"][data-option-id="${id}"]`);
  /** A control of the row itself, not of its nested child rows. */
  const control = (id: number, testId: string) => row(id).locator(`:scope > .row-main [data-testid="${testId}"]`);
  const openField = async (fieldId: number, context = 'default') => {
    await page.goto(`${app.url}/#/fields/${fieldId}/${context}`);
    await page.getByTestId('option-row').first().waitFor();
  };
  /** Waits until the rows on screen show these values in this order (the list is re-read after each change). */
  const shown = async (ids: number[]) => {
    await page.waitForFunction(
      (want) => [...document.querySelectorAll('.editor-main > .option-list > ul > [data-testid="option-row"]')].map((e) => Number((e as HTMLElement).dataset.optionId)).join() === want.join(),
      ids,
    );
  };

  // A grant for alice on the multi select, so its default can be edited too.
  const grantAlice = (a: WebApp) =>
    a.http
      .put(`${FE}/admin/customfields/10003`)
      .set('Authorization', a.adminAuth)
      .send({ userlist: ['alice'], grouplist: [] })
      .expect(200);
  useSignedInBrowser(
    { user: { name: 'alice', password: 'alice' }, prepare: grantAlice },
    (s) => ({ app, webPage: w, page } = s),
  );

  it('goes from the field list to a field, its contexts and the option editor', async () => {
    await page.getByTestId('nav-fields').click();
    await page.locator('[data-testid="field-row"][data-field-id="10000"] a').click();
    await page.getByTestId('option-row').first().waitFor();
    const contexts = await page.getByTestId('context-select').locator('option').allTextContents();
    expect(contexts).toEqual(['Default Configuration Scheme for Demo Single Select', 'DEMO project bugs']);
    await page.getByTestId('context-select').selectOption({ label: 'DEMO project bugs' });
    await row(10010).waitFor();
    expect(page.url()).toMatch(/#\/fields\/10000\/10110$/);
  });

  it('adds an option, and shows the API message inline for a duplicate without adding it', async () => {
    await openField(10000);
    await page.getByTestId('option-new').fill('Urgent');
    await page.getByTestId('option-new-submit').click();
    await page.locator('[data-testid="option-row"]', { hasText: 'Urgent' }).waitFor();
    expect(await values(10000)).toEqual(['Low', 'Medium', 'High', 'Blocker', 'Urgent']);

    await page.getByTestId('option-new').fill('medium');
    await page.getByTestId('option-new-submit').click();
    expect(await textOf(page.locator('.add-form [data-testid="error-message"]'))).toMatch(/^An option named .+ already exists in this list\. Choose another name\.$/);
    expect(await page.getByTestId('option-new').inputValue()).toBe('medium');
    expect(await values(10000)).toEqual(['Low', 'Medium', 'High', 'Blocker', 'Urgent']);
    // Typing again takes the message away.
    await page.getByTestId('option-new').fill('');
    await page.locator('.add-form [data-testid="error-message"]').waitFor({ state: 'detached' });
  });

  /** What has the keyboard focus: its test id, or else its accessible name. */
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.getAttribute('aria-label'));

  it('renames in place (Enter saves) and shows a refusal, the keyboard focus in the input and then back on Rename', async () => {
    await openField(10000);
    await row(10001).getByRole('button', { name: 'Rename Medium' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('option-rename-input').waitFor();
    expect(await focused()).toBe('option-rename-input');
    // Typed, not filled: the keys go where the focus is.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Normal');
    await page.keyboard.press('Enter');
    await row(10001).locator('.value', { hasText: 'Normal' }).waitFor();
    expect((await list(10000)).find((o) => o.id === 10001)?.optionvalue).toBe('Normal');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Rename Normal');

    await page.keyboard.press('Enter');
    await page.getByTestId('option-rename-input').waitFor();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('low');
    await page.keyboard.press('Enter');
    expect(await textOf(page.getByTestId('error-message'))).toBe('An option named low already exists in this list. Choose another name.');
    expect((await list(10000)).find((o) => o.id === 10001)?.optionvalue).toBe('Normal');
    // A refusal leaves the input open and focused; Escape closes it and gives the focus back to Rename.
    expect(await focused()).toBe('option-rename-input');
    await page.keyboard.press('Escape');
    // The focus moves once the row has rendered again without the input: wait for it, as after the save above.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Rename Normal');
    expect(await focused()).toBe('Rename Normal');
  });

  it('enables and disables', async () => {
    await openField(10000);
    expect(await control(10003, 'option-disable-toggle').getAttribute('aria-pressed')).toBe('true');
    await control(10003, 'option-disable-toggle').click();
    await page.waitForFunction(() => document.querySelector('[data-option-id="10003"] [data-testid="option-disable-toggle"]')?.getAttribute('aria-pressed') === 'false');
    expect((await list(10000)).find((o) => o.id === 10003)?.disabled).toBe(false);
    await control(10003, 'option-disable-toggle').click();
    await page.waitForFunction(() => document.querySelector('[data-option-id="10003"] [data-testid="option-disable-toggle"]')?.getAttribute('aria-pressed') === 'true');
    expect((await list(10000)).find((o) => o.id === 10003)?.disabled).toBe(true);
  });

  it('moves up, down and first with the buttons, and by keyboard keeps the focus on the moved option', async () => {
    await openField(10000);
    const ids = async () => (await list(10000)).map((o) => o.id);
    const start = await ids(); // 10000 10001 10002 10003 Urgent
    const urgent = start[4]!;
    await control(10002, 'option-move-up').click();
    await shown([10000, 10002, 10001, 10003, urgent]);
    expect(await ids()).toEqual([10000, 10002, 10001, 10003, urgent]);
    await control(urgent, 'option-move-first').click();
    await shown([urgent, 10000, 10002, 10001, 10003]);
    expect(await ids()).toEqual([urgent, 10000, 10002, 10001, 10003]);
    await control(10000, 'option-move-down').click();
    await shown([urgent, 10002, 10000, 10001, 10003]);
    expect(await ids()).toEqual([urgent, 10002, 10000, 10001, 10003]);

    // Keyboard only: focus the button, Enter twice; the focus follows the option.
    await control(10002, 'option-move-down').focus();
    await page.keyboard.press('Enter');
    await shown([urgent, 10000, 10002, 10001, 10003]);
    await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.closest('[data-testid="option-row"]')?.getAttribute('data-option-id') === '10002');
    await page.keyboard.press('Enter');
    await shown([urgent, 10000, 10001, 10002, 10003]);
    expect(await ids()).toEqual([urgent, 10000, 10001, 10002, 10003]);
    // Tab reaches the controls with a visible focus ring.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe('solid');
  });

  it('moves by drag and drop', async () => {
    await openField(10000);
    const before = (await list(10000)).map((o) => o.id);
    const last = before[before.length - 1]!;
    const second = before[1]!;
    await row(last).locator(':scope > .row-main .handle').dragTo(row(second).locator(':scope > .row-main'));
    const expected = [before[0]!, last, ...before.slice(1, -1)];
    await shown(expected);
    expect((await list(10000)).map((o) => o.id)).toEqual(expected);
  });

  it('sorts with locale, comparison and order, after a confirmation', async () => {
    await openField(10000);
    const form = page.locator('.editor-main > .sort-form');
    await form.getByLabel('Locale').fill('de-DE');
    await form.getByLabel('Compare').selectOption({ label: 'Ignore case and accents' });
    await form.getByLabel('Order').selectOption('DESCENDING');
    await form.getByTestId('option-sort').click();
    await page.getByTestId('confirm').click();
    const sorted = [...(await values(10000))].sort((a, b) => b.localeCompare(a, 'de', { sensitivity: 'base' }));
    await page.waitForFunction(
      (want) => [...document.querySelectorAll('.editor-main > .option-list > ul > li > .row-main .value')].map((e) => e.textContent).join() === want.join(),
      sorted,
    );
    expect(await values(10000)).toEqual(sorted);
  });

  it('deletes after a confirmation', async () => {
    await openField(10000);
    const urgent = (await list(10000)).find((o) => o.optionvalue === 'Urgent')!.id;
    await control(urgent, 'option-delete').click();
    expect(await textOf(page.getByRole('dialog'))).toMatch(/The option “Urgent”/);
    await page.getByTestId('confirm').click();
    await row(urgent).waitFor({ state: 'detached' });
    expect((await list(10000)).map((o) => o.optionvalue)).not.toContain('Urgent');
  });

  it('shows child options nested in their parent row, adds one, and sets a cascading default', async () => {
    await openField(10002);
    // The address says `default`; the choice shows the default context by its id.
    expect(await page.getByTestId('context-select').inputValue()).toBe('10102');
    await row(10030).getByRole('button', { name: 'Children' }).click();
    const nested = row(10030).locator('[data-testid="option-row"][data-option-id="10031"]');
    await nested.waitFor();
    const childAdd = row(10030).getByTestId('option-add-input');
    await childAdd.fill('Italy');
    await row(10030).getByTestId('option-add-submit').click();
    await row(10030).locator('[data-testid="option-row"]', { hasText: 'Italy' }).waitFor();
    expect(await values(10002, 10030)).toEqual(['Germany', 'France', 'Austria', 'Italy']);
    // A child moves among its siblings only.
    await control(10033, 'option-move-first').click();
    await page.waitForFunction(() => document.querySelector('[data-option-id="10030"] .option-list [data-testid="option-row"]')?.getAttribute('data-option-id') === '10033');
    expect(await values(10002, 10030)).toEqual(['Austria', 'Germany', 'France', 'Italy']);

    await page.getByTestId('default-select').selectOption({ label: 'America' });
    await page.getByTestId('default-child-select').locator('option', { hasText: 'Canada' }).waitFor({ state: 'attached' });
    await page.getByTestId('default-child-select').selectOption({ label: 'Canada' });
    await page.getByRole('button', { name: 'Save default' }).click();
    await page.getByText('Default saved.').waitFor();
    const def = (await app.http.get(`${FE}/user/customfields/10002/contexts/default/options/default`).set('Authorization', ALICE).expect(200)).body;
    expect(def.defaultOption.id).toBe(10040);
    expect(def.defaultChildOption.id).toBe(10041);
  });

  it('sets several default options on a multi select', async () => {
    await openField(10003);
    const opts = await list(10003);
    const enabled = opts.filter((o) => !o.disabled);
    // The demo's defaults are chips: each goes with its own button, then the two are picked by name.
    const removes = page.getByTestId('default-chips').getByRole('button');
    while ((await removes.count()) > 0) await removes.first().click();
    for (const o of [enabled[0]!, enabled[2]!]) {
      await page.getByTestId('default-picker').fill(o.optionvalue);
      await page.getByRole('option', { name: o.optionvalue, exact: true }).click();
    }
    await page.getByRole('button', { name: 'Save default' }).click();
    await page.getByText('Default saved.').waitFor();
    const def = (await app.http.get(`${FE}/user/customfields/10003/contexts/default/options/default`).set('Authorization', ALICE).expect(200)).body;
    expect(def.defaultOptions.map((o: Opt) => o.id)).toEqual([enabled[0]!.id, enabled[2]!.id]);
  });

  it('offers no delete when only administrators may delete options', async () => {
    await app.http.put(`${FE}/admin/settings`).set('Authorization', app.adminAuth).send({ onlyAdminsMayDeleteOptions: true }).expect(200);
    try {
      await openField(10000);
      await page.getByText('Only administrators may delete options').waitFor();
      expect(await page.getByTestId('option-delete').count()).toBe(0);
    } finally {
      await app.http.put(`${FE}/admin/settings`).set('Authorization', app.adminAuth).send({ onlyAdminsMayDeleteOptions: false }).expect(200);
    }
  });

  it('logged no console errors other than the refusals the tests provoked (400)', () => {
    expect(unexpected(w.problems, [400])).toEqual([]);
  });
});
