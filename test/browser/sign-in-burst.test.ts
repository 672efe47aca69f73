// Issue 42 ("Signing in") as a person at the form meets it, on a real server process with one hashing slot and the
// real scrypt cost (the in-process test app hashes cheaply and without the queue): ten other people sign in over
// REST at the same moment as the form is sent, and the person is signed in after waiting its turn, with no error.
// Then a token made on the tokens screen works as the Basic password of its user; a wrong one gets the token hint
// (the hint is the API's: the sign-in form never takes a token, so it has no face on screen); and the password
// policy's reason shows on `#/password` (PASSWORD_MIN_LENGTH=12, the default of a real server).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeContexts, hasChromium, openPage, sharedBrowser, textOf, unexpected, type WebPage } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { migratedDataDir, startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

const ADMIN = { Authorization: `Basic ${Buffer.from('admin:burst-admin-secret').toString('base64')}` };
const CROWD = Array.from({ length: 10 }, (_, i) => `crowd${i}`);
const PERSON = 'walker';
/** Long enough for the policy without the name: the part besides it has 19 characters. */
const passwordOf = (name: string) => `${name}-long-secret-phrase`;
const basicOf = (name: string, password: string) => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;

describe.skipIf(!hasChromium)('signing in through the form during a burst of sign-ins, on one hashing slot', { timeout: 240_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-burst-browser-'));
  let server: ServerProcess, browser: Browser, w: WebPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServerProcess(
        {
          DATA_DIR: migratedDataDir(path.join(dir, 'data')),
          ADMIN_PASSWORD: 'burst-admin-secret',
          DEMO: '0',
          LOGIN_HASH_CONCURRENCY: '1',
          // Eleven hashes queue on the one slot; a machine running many suites hashes ten times slower than a quiet
          // one, so the wait allowed is raised from 10 s: what is shown here is that the form waits, not the bound.
          LOGIN_QUEUE_SECONDS: '120',
          PASSWORD_MIN_LENGTH: '12',
          // Loopback is the proxy, so the crowd's requests come from addresses of their own (X-Forwarded-For).
          TRUST_PROXY: '127.0.0.1,::1',
        },
        180_000,
      ),
      sharedBrowser(),
    ]);
    for (const name of [...CROWD, PERSON]) {
      const res = await fetch(`${server.url}/rest/api/2/user`, {
        method: 'POST',
        headers: { ...ADMIN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, password: passwordOf(name) }),
      });
      expect(res.status, await res.text()).toBe(201);
    }
    w = await openPage(browser);
  }, 240_000);
  afterAll(async () => {
    if (browser) await closeContexts(browser);
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs the person in through the form while ten others sign in over REST, with no error', async () => {
    const { page } = w;
    // Slow hashes under a burst: the form may wait for its turn well beyond the page's default 10 s.
    page.setDefaultTimeout(120_000);
    await page.goto(`${server.url}/`);
    await page.getByTestId('login-username').fill(PERSON);
    await page.getByTestId('login-password').fill(passwordOf(PERSON));
    let crowdDone = false;
    const crowd = Promise.all(
      CROWD.map((name, i) =>
        fetch(`${server.url}/rest/auth/1/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${i + 1}` },
          body: JSON.stringify({ username: name, password: passwordOf(name) }),
        }),
      ),
    ).then((answers) => ((crowdDone = true), answers));
    await page.getByTestId('login-submit').click();
    // The form was sent while the crowd's hashes still held the slot (ten real hashes take seconds on it).
    expect(crowdDone).toBe(false);
    await page.getByTestId('logout').waitFor();
    expect(await page.getByTestId('error-message').count()).toBe(0);
    expect((await crowd).map((a) => a.status)).toEqual(Array(CROWD.length).fill(200));
    // The page's session is the person's.
    expect(await page.evaluate(() => fetch('/rest/api/2/myself').then((r) => r.json()).then((me: { name: string }) => me.name))).toBe(PERSON);
    page.setDefaultTimeout(10_000);
  });

  it('makes a token on the tokens screen that also works as the Basic password of its user; a wrong one gets the hint', async () => {
    const { page } = w;
    await page.getByTestId('nav-tokens').click();
    await page.getByTestId('token-create-name').fill('script');
    await page.getByTestId('token-create-submit').click();
    const token = await textOf(page.getByTestId('token-raw'));
    const myself = (authorization: string) => fetch(`${server.url}/rest/api/2/myself`, { headers: { Authorization: authorization } });
    const good = await myself(basicOf(PERSON, token));
    expect(good.status).toBe(200);
    expect(((await good.json()) as { name: string }).name).toBe(PERSON);
    // Token-shaped, but no token of this user (the last character changed): 401 saying to use a token as a token.
    const wrongToken = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const wrong = await myself(basicOf(PERSON, wrongToken));
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { errorMessages: string[] }).errorMessages.join(' ')).toContain('The password has the form of a personal access token');
    // Counted as a token, never as the person's failed password: the page is still signed in and the name unlocked.
    await page.reload();
    await page.getByTestId('logout').waitFor();
  });

  it('shows the password policy’s reason when a new password is too short or built on the user name', async () => {
    const { page } = w;
    await page.goto(`${server.url}/#/password`);
    const attempt = async (next: string) => {
      await page.getByTestId('password-current').fill(passwordOf(PERSON));
      await page.getByTestId('password-new').fill(next);
      await page.getByTestId('password-repeat').fill(next);
      await page.getByTestId('password-submit').click();
      return textOf(page.getByTestId('error-message'));
    };
    expect(await attempt('short-pw')).toBe('The password must be at least 12 characters long.');
    expect(await seriousViolations(page)).toEqual([]);
    await page.reload();
    expect(await attempt(`${PERSON}-2024!`)).toBe('The password must not be built on the username: it needs at least 12 characters besides it.');
    // Neither was set: the old password still signs in over Basic.
    expect((await fetch(`${server.url}/rest/api/2/myself`, { headers: { Authorization: basicOf(PERSON, passwordOf(PERSON)) } })).status).toBe(200);
    expect(unexpected(w.problems, [400])).toEqual([]);
  });
});
