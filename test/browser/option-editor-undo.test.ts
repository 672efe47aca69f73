import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, textOf, unexpected, useSignedInBrowser, type WebApp, type WebPage } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { basic } from '../helpers/test-app.ts';

const FE = '/rest/trackercustomfieldeditorplugin/1';
const ALICE = basic('alice', 'alice');
const L = `${FE}/user/customfields/10000/contexts/default/options`;
const MULTI = `${FE}/user/customfields/10003/contexts/default/options`;
interface Opt {
  id: number;
  optionvalue: string;
  disabled: boolean;
}

/** Issue 42, item 1: sort behind a confirmation, undo, errors that clear, moves in a filtered list, the picker. */
describe.skipIf(!hasChromium)('option editor: confirmation, undo and long lists (alice, demo data)', () => {
  let app: WebApp, w: WebPage, page: Page;

  const list = async (path = L): Promise<Opt[]> => (await app.http.get(path).set('Authorization', ALICE).expect(200)).body;
  const ids = async (path = L) => (await list(path)).map((o) => o.id);
  const row = (id: number) => page.locator(`[data-testid="option-row"][data-option-id="${id}"]`);
  const control = (id: number, testId: string) => row(id).locator(`:scope > .row-main [data-testid="${testId}"]`);
  const openField = async (fieldId: number) => {
    await page.goto(`${app.url}/#/fields/${fieldId}/default`);
    await page.getByTestId('option-row').first().waitFor();
  };
  const shown = async (want: number[]) => {
    await page.waitForFunction(
      (w) => [...document.querySelectorAll('.editor-main > .option-list > ul > [data-testid="option-row"]')].map((e) => Number((e as HTMLElement).dataset.optionId)).join() === w.join(),
      want,
    );
  };

  // A grant on the multi select and 3,000 more options in it (three batches of 1,000), for the picker.
  const prepare = async (a: WebApp) => {
    await a.http.put(`${FE}/admin/customfields/10003`).set('Authorization', a.adminAuth).send({ userlist: ['alice'], grouplist: [] }).expect(200);
    for (let b = 0; b < 3; b++) {
      const create = Array.from({ length: 1000 }, (_, i) => ({ optionvalue: `Shade ${String(b * 1000 + i).padStart(4, '0')}` }));
      await a.http.post(`${MULTI}/batch`).set('Authorization', ALICE).send({ create }).expect(200);
    }
  };
  useSignedInBrowser({ user: { name: 'alice', password: 'alice' }, prepare }, (s) => ({ app, webPage: w, page } = s));

  it('asks before sorting, naming the list and the order, and Cancel changes nothing', async () => {
    await openField(10000);
    const before = await ids();
    await page.locator('.editor-main > .sort-form').getByLabel('Order').selectOption('DESCENDING');
    await page.getByTestId('option-sort').click();
    const dialog = await textOf(page.getByRole('dialog'));
    expect(dialog).toContain('Sort the top-level options of Demo Single Select?');
    expect(dialog).toContain('alphabetical order Z\u00a0→\u00a0A');
    expect(dialog).toContain('case and accents count');
    await page.getByTestId('confirm-cancel').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await ids()).toEqual(before);
    expect(await page.getByTestId('option-undo').count()).toBe(0);
  });

  it('undoes a sort: the order before comes back over REST, and the offer goes', async () => {
    await openField(10000);
    const before = await ids();
    await page.getByTestId('option-sort').click();
    await page.getByTestId('confirm').click();
    await page.getByTestId('option-undo').waitFor();
    const sorted = (await list()).map((o) => o.optionvalue);
    expect(sorted).toEqual([...sorted].sort((a, b) => b.localeCompare(a)));
    expect(await ids()).not.toEqual(before);
    expect(await textOf(page.getByTestId('success-message'))).toContain('Sorted the top-level options of Demo Single Select.');

    await page.getByTestId('option-undo').click();
    await page.getByText('are back in their order before the sort').waitFor();
    expect(await ids()).toEqual(before);
    await shown(before);
    expect(await page.getByTestId('option-undo').count()).toBe(0);
  });

  it('refuses to undo once the list changed elsewhere, and keeps that change', async () => {
    await openField(10000);
    await page.getByTestId('option-sort').click();
    await page.getByTestId('confirm').click();
    await page.getByTestId('option-undo').waitFor();
    const afterSort = await ids();
    // Someone else renames an option of the list meanwhile.
    const renamed = `${(await list())[0]!.optionvalue} (elsewhere)`;
    await app.http.put(`${L}/${afterSort[0]}`).set('Authorization', ALICE).send({ optionvalue: renamed }).expect(200);
    await page.getByTestId('option-undo').click();
    expect(await textOf(page.getByTestId('error-message'))).toMatch(/^The sort cannot be undone: the top-level options of Demo Single Select changed since/);
    expect(await ids()).toEqual(afterSort);
    expect((await list())[0]!.optionvalue).toBe(renamed);
    expect(await page.getByTestId('option-undo').count()).toBe(0);
  });

  it('undoes a move, and any other change in the editor takes the offer away', async () => {
    await openField(10000);
    const before = await ids();
    await control(before[2]!, 'option-move-up').click();
    await page.getByTestId('option-undo').waitFor();
    expect(await ids()).toEqual([before[0], before[2], before[1], ...before.slice(3)]);
    await page.getByTestId('option-undo').click();
    await page.getByText('are back in their order before the move').waitFor();
    expect(await ids()).toEqual(before);

    await control(before[1]!, 'option-move-first').click();
    await page.getByTestId('option-undo').waitFor();
    await control(before[0]!, 'option-disable-toggle').click();
    await page.getByTestId('option-undo').waitFor({ state: 'detached' });
    await control(before[0]!, 'option-disable-toggle').click();
  });

  it('hides an error once the next action succeeds', async () => {
    await openField(10000);
    const current = await list();
    await page.getByTestId('option-new').fill(current[0]!.optionvalue.toUpperCase());
    await page.getByTestId('option-new-submit').click();
    await page.locator('.add-form [data-testid="error-message"]').waitFor();
    // Not typing into the form: a move elsewhere succeeds, and the refusal goes.
    await control(current[1]!.id, 'option-move-first').click();
    await page.locator('[data-testid="error-message"]').waitFor({ state: 'detached' });
  });

  it('moves among the options shown by the filter with ↑ and ↓', async () => {
    // Low, Medium, High, Blocker…: the filter "lo" shows the first and the last.
    for (const name of ['Blocker', 'High', 'Medium', 'Low']) {
      const id = (await list()).find((o) => o.optionvalue.startsWith(name))!.id;
      await app.http.post(`${L}/${id}/move`).set('Authorization', ALICE).send({ position: 'First' }).expect(200);
    }
    await openField(10000);
    await page.getByTestId('option-filter').fill('lo');
    const all = await list();
    const [first, second] = all.filter((o) => o.optionvalue.toLowerCase().includes('lo'));
    expect([all.indexOf(first!), all.indexOf(second!)]).toEqual([0, 3]);
    await shown([first!.id, second!.id]);
    await control(first!.id, 'option-move-down').click();
    await page.waitForFunction(
      (want) => [...document.querySelectorAll('.editor-main > .option-list > ul > [data-testid="option-row"]')].map((e) => (e as HTMLElement).dataset.optionId).slice(0, 2).join() === want,
      `${second!.id},${first!.id}`,
    );
    const after = await ids();
    expect(after.indexOf(first!.id)).toBe(after.indexOf(second!.id) + 1);
    await page.getByTestId('option-filter').fill('');
  });

  it('shows the count and "Show more" above a long list too', async () => {
    await openField(10003);
    const total = (await list(MULTI)).length;
    expect(await textOf(page.getByTestId('options-count'))).toBe(`Showing 200 of ${total}.`);
    await page.getByTestId('options-more-top').click();
    expect(await textOf(page.getByTestId('options-count'))).toBe(`Showing 400 of ${total}.`);
    expect(await page.locator('.editor-main > .option-list > ul > [data-testid="option-row"]').count()).toBe(400);
  });

  it('picks defaults of a 3,000-option multi select by typing, as chips, never replacing the chosen ones', async () => {
    await openField(10003);
    const picker = page.getByTestId('default-picker');
    await picker.fill('Shade 2999');
    await page.getByRole('option', { name: 'Shade 2999' }).click();
    // By keyboard only: type, ↓, Enter.
    await picker.pressSequentially('shade 150');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const chips = async () => (await page.getByTestId('default-chips').locator('li').allTextContents()).map((t) => t.replace(/×$/, ''));
    const chosen = await chips();
    expect(chosen.slice(-2)).toEqual(['Shade 2999', 'Shade 1501']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save default' }).click();
    await page.getByText('Default saved.').waitFor();
    const def = (await app.http.get(`${MULTI}/default`).set('Authorization', ALICE).expect(200)).body;
    expect(def.defaultOptions.map((o: Opt) => o.optionvalue)).toEqual(chosen);
    // Backspace in the empty box takes the last chip off again.
    await picker.press('Backspace');
    expect(await chips()).toEqual(chosen.slice(0, -1));
  }, 120_000);

  it('passes axe with the sort confirmation and the undo offer, in both themes', async () => {
    for (const theme of ['light', 'dark']) {
      await openField(10000);
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      await control((await ids())[1]!, 'option-move-first').click();
      await page.getByTestId('option-undo').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('option-sort').click();
      await page.getByRole('dialog').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('confirm-cancel').click();
    }
  });

  it('logged no console errors other than the refusals the tests provoked (400)', () => {
    expect(unexpected(w.problems, [400])).toEqual([]);
  });
});
