import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, openPage, signInThroughForm, textOf, unexpected, useSignedInBrowser, type WebApp, type WebPage } from '../helpers/browser.ts';
import { ADMIN, basic } from '../helpers/test-app.ts';

const FE = '/rest/trackercustomfieldeditorplugin/1';
const M = `${FE}/maintenance`;
const ALICE = basic('alice', 'alice');

describe.skipIf(!hasChromium)('maintenance in the browser (administrators)', () => {
  let app: WebApp, browser: Browser, w: WebPage, page: Page;
  const admin = (path: string) => app.http.get(path).set('Authorization', app.adminAuth).expect(200);
  const rowsOf = (kind?: string) => page.locator(kind ? `[data-testid="event-row"][data-kind="${kind}"]` : '[data-testid="event-row"]');

  // The job runner of the test app: a short poll so a scheduled job runs within the test; a long tick, so the
  // scheduled housekeeping runs once at most.
  const env = { JOBS_POLL_MS: '100', JOBS_TICK_MS: '3600000' };
  useSignedInBrowser(
    { user: ADMIN, env, prepare: (a) => a.services.jobs.start() },
    (s) => ({ app, browser, webPage: w, page } = s),
  );

  it('schedules a job from the list of operations and shows it reach SUCCESS (M1, M2)', async () => {
    await page.getByTestId('nav-maintenance').click();
    await page.getByRole('heading', { name: 'Maintenance' }).waitFor();
    await page.locator('[data-testid="operation-run"][data-operation="JobIndexCustomFieldSearchTable"]').click();
    const row = page.locator('[data-testid="job-row"][data-job-name="JobIndexCustomFieldSearchTable"]');
    // The list is read again while the job is scheduled or running, without a reload.
    await row.and(page.locator('[data-status="SUCCESS"]')).waitFor({ timeout: 20_000 });
    expect(await textOf(row.getByTestId('job-status'))).toBe('SUCCESS');
    const jobs = (await admin(`${M}/jobs?filter=IndexCustomField`)).body.values;
    expect(jobs).toMatchObject([{ name: 'JobIndexCustomFieldSearchTable', status: 'SUCCESS' }]);
    expect(await row.textContent()).toContain(jobs[0].message);
  });

  it('asks before a destructive action and runs it once confirmed', async () => {
    const before = (await admin(`${M}/event_log_entries?kind=event_log.deleted`)).body.total;
    await page.locator('[data-testid="operation-run"][data-operation="MaintenanceActionDeleteEventLogEntriesOlderThanOneMonth"]').click();
    // The page's own dialog says what goes; its confirm button runs the action.
    expect(await textOf(page.getByRole('dialog'))).toMatch(/older than one calendar month is deleted/);
    await page.getByTestId('confirm').click();
    await page.getByTestId('operation-notice').waitFor();
    expect((await admin(`${M}/event_log_entries?kind=event_log.deleted&actor=admin`)).body.total).toBe(before + 1);
  });

  it('lists the event log newest first, filtered by user and kind', async () => {
    // A change over REST by alice: its entry names her and the kind.
    const options = `${FE}/user/customfields/10000/contexts/default/options`;
    const made = (await app.http.post(options).set('Authorization', ALICE).send({ optionvalue: 'Made for the log' }).expect(200)).body;
    await app.http.put(`${options}/${made.id}`).set('Authorization', ALICE).send({ optionvalue: 'Renamed for the log' }).expect(200);

    await page.getByTestId('nav-maintenance').click();
    await page.getByTestId('maintenance-tab-events').click();
    await rowsOf().first().waitFor();
    const newest = (await admin(`${M}/event_log_entries?maxResults=1`)).body.values[0];
    expect(await rowsOf().first().getAttribute('data-event-id')).toBe(String(newest.id));

    await page.getByTestId('event-filter-actor').fill('alice');
    await page.getByTestId('event-filter-apply').click();
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="event-row"]')] as HTMLElement[];
      return rows.length > 0 && rows.every((r) => r.dataset.actor === 'alice');
    });
    const renamed = rowsOf('option.renamed').first();
    expect(await renamed.getAttribute('data-actor')).toBe('alice');
    expect(await renamed.textContent()).toMatch(/optionvalue: “Made for the log” → “Renamed for the log”/);
    expect(await renamed.textContent()).toContain(String(made.id));
    const aliceTotal = (await admin(`${M}/event_log_entries?actor=alice`)).body.total;
    expect(await rowsOf().count()).toBe(Math.min(aliceTotal, 25));

    // The kind narrows it further: only the creation is left.
    await page.getByTestId('event-filter-kind').fill('option.created');
    await page.getByTestId('event-filter-apply').click();
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="event-row"]')] as HTMLElement[];
      return rows.length > 0 && rows.every((r) => r.dataset.kind === 'option.created');
    });
    const created = (await admin(`${M}/event_log_entries?actor=alice&kind=option.created`)).body;
    expect(await rowsOf().count()).toBe(created.total);
    expect(await rowsOf().first().getAttribute('data-event-id')).toBe(String(created.values[0].id));

    // A bad value: the API's 400 message.
    await page.getByTestId('event-filter-kind').fill('Not A Kind!');
    await page.getByTestId('event-filter-apply').click();
    expect(await textOf(page.getByTestId('error-message'))).toMatch(/kind must be/);

    await page.getByTestId('event-filter-clear').click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="event-row"]')].some((r) => (r as HTMLElement).dataset.actor !== 'alice'));
  });

  it('pages through the event log with next and previous', async () => {
    const total = (await admin(`${M}/event_log_entries`)).body.total;
    // Enough entries for a second page of 25: settings changes by the administrator.
    for (let i = total; i < 30; i++) {
      await app.http.put(`${FE}/admin/settings`).set('Authorization', app.adminAuth).send({ onlyAdminsMayDeleteOptions: i % 2 === 0 }).expect(200);
    }
    // To the jobs tab and back, as a person would: the events tab is mounted again and reads the log as it is
    // now. (Two hash changes in a row can be rendered as one, keeping the earlier test's page of fewer entries,
    // whose Next stays disabled.)
    await page.getByTestId('maintenance-tab-jobs').click();
    await page.locator('[data-testid="operation-run"]').first().waitFor();
    await page.getByTestId('maintenance-tab-events').click();
    await rowsOf().first().waitFor();
    const second = (await admin(`${M}/event_log_entries?startAt=25&maxResults=25`)).body.values[0];
    await page.getByRole('button', { name: 'Next' }).first().click();
    await page.locator(`[data-testid="event-row"][data-event-id="${second.id}"]`).waitFor();
    expect(await rowsOf().first().getAttribute('data-event-id')).toBe(String(second.id));
    await page.getByRole('button', { name: 'Previous' }).first().click();
    await page.locator(`[data-testid="event-row"][data-event-id="${second.id}"]`).waitFor({ state: 'detached' });
  });

  it('changes the truncation schedule and shows the API message for a bad value (M3)', async () => {
    await page.goto(`${app.url}/#/maintenance/events`);
    const days = page.getByTestId('truncate-days');
    await days.waitFor();
    expect(await days.inputValue()).toBe('90');
    await page.getByTestId('truncate-enabled').check();
    await days.fill('30');
    await page.getByTestId('truncate-save').click();
    await page.getByTestId('truncate-notice').waitFor();
    expect((await admin(`${M}/event_log_entries/truncate_schedule`)).body).toEqual({ enabled: true, olderThanDays: 30 });
    expect(await textOf(page.getByTestId('truncate-current'))).toMatch(/older than 30 days/);

    await days.fill('0');
    await page.getByTestId('truncate-save').click();
    const form = page.locator('form.schedule-form');
    expect(await textOf(form.getByTestId('error-message'))).toBe('The number of days must be at least 1.');
    expect((await admin(`${M}/event_log_entries/truncate_schedule`)).body).toEqual({ enabled: true, olderThanDays: 30 });

    // The change is in the log, with the administrator as actor.
    const entry = (await admin(`${M}/event_log_entries?kind=settings.changed&maxResults=1`)).body.values[0];
    expect(entry).toMatchObject({ actor: 'admin', target: { type: 'setting', key: 'eventLogTruncateSchedule' }, after: { enabled: true, olderThanDays: 30 } });
  });

  it('is reachable by keyboard, with the focus visible', async () => {
    await page.goto(`${app.url}/#/maintenance`);
    await page.getByTestId('operation-run').first().waitFor();
    // Tab from the tab link before the first control: the focus lands on it, and a keyboard focus is outlined.
    await page.getByTestId('maintenance-tab-events').focus();
    let tries = 0;
    while ((await page.evaluate(() => (document.activeElement as HTMLElement).dataset.testid)) !== 'operation-run' && tries++ < 5) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.operation)).toBe('JobIndexCustomFieldSearchTable');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
  });

  it('fits a 390-pixel phone screen without sideways scrolling', async () => {
    const phone = await openPage(browser, { width: 390, height: 844 });
    try {
      await signInThroughForm(phone.page, app.url, 'admin', 'admin-secret', '#/maintenance');
      await phone.page.getByTestId('job-row').first().waitFor();
      // Neither the page nor a row card (the tables scroll sideways by themselves, which would hide a too wide card).
      const overflow = () =>
        phone.page.evaluate(() =>
          Math.max(
            document.documentElement.scrollWidth - document.documentElement.clientWidth,
            ...[...document.querySelectorAll('tbody tr, td > div')].map((e) => e.scrollWidth - e.clientWidth),
          ),
        );
      expect(await overflow()).toBeLessThanOrEqual(0);
      await phone.page.getByTestId('maintenance-tab-events').click();
      await phone.page.getByTestId('event-row').first().waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      expect(unexpected(phone.problems)).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('is neither offered nor served to a user who is not an administrator', async () => {
    const alice = await openPage(browser);
    try {
      await signInThroughForm(alice.page, app.url, 'alice', 'alice');
      await alice.page.getByTestId('nav-fields').waitFor();
      expect(await alice.page.getByTestId('nav-maintenance').count()).toBe(0);
      await alice.page.goto(`${app.url}/#/maintenance`);
      expect(await textOf(alice.page.getByTestId('error-message'))).toBe('Only administrators may do this.');
      expect(await alice.page.getByTestId('operation-run').count()).toBe(0);
      await alice.page.goto(`${app.url}/#/maintenance/events`);
      // The event-log tab is the one shown (both tabs answer a refusal with the same words).
      await alice.page.locator('[data-testid="maintenance-tab-events"][aria-current="page"]').waitFor();
      expect(await textOf(alice.page.getByTestId('error-message'))).toBe('Only administrators may do this.');
      expect(await alice.page.getByTestId('truncate-save').count()).toBe(0);
      await app.http.get(`${M}/jobs`).set('Authorization', ALICE).expect(403);
      expect(unexpected(alice.problems, [403])).toEqual([]);
    } finally {
      await alice.context.close();
    }
  });

  it('logged no console errors other than the refusals the tests provoked (400)', () => {
    expect(unexpected(w.problems, [400])).toEqual([]);
  });
});
