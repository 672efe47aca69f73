import fs from 'node:fs';
import type { Server } from 'node:http';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createHttpServer } from '../../src/server.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { freePort } from './server-process.ts';

/** Debian's chromium; CI installs the package when it is missing (`.ci/run`), nothing is ever downloaded. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

let workerBrowser: Promise<Browser> | undefined;
let exitOnSigterm = false;

/**
 * The chromium of this test worker, launched by the first browser test file it runs and kept for the next ones
 * (`isolate: false` keeps the worker's modules from one file to the next): a launch and a close cost about a
 * second of the two cores per file. What a file does in it stays in browser contexts of its own (`openPage`,
 * `browser.newContext`), each with its own cookies and storage, closed by `closeContexts` when the file is done.
 * One that crashed or was closed is launched again.
 *
 * Nothing closes it at the end: vitest stops a worker with SIGTERM, and SIGKILL half a second later. Playwright's
 * own SIGTERM handler closes the browser politely, which can take longer, and then its profile folder stays in
 * the temporary folder; so the worker exits at once on SIGTERM instead, and Playwright's exit handler kills
 * chromium and removes the folder, synchronously.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!exitOnSigterm) {
    exitOnSigterm = true;
    process.once('SIGTERM', () => process.exit(143));
  }
  workerBrowser ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS, handleSIGTERM: false }).then(
    (browser) => {
      browser.on('disconnected', () => (workerBrowser = undefined));
      return browser;
    },
    (err: unknown) => {
      workerBrowser = undefined;
      throw err;
    },
  );
  return workerBrowser;
}

/** Closes every context still open in `browser`, so that nothing a file did (a page, its cookies) reaches the next file. */
export async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((c) => c.close()));
}

export interface WebApp extends TestApp {
  /** Absolute URL of the interface (BASE_URL), e.g. `http://127.0.0.1:41234`. */
  url: string;
  server: Server;
}

/**
 * The real application listening on a port of its own, on a fresh database with the demo data (fields with
 * options, the DEMO space with code boxes, alice / alice) and `admin` / `admin-secret`.
 */
export async function startWebApp(env: Record<string, string> = {}, contextPath = ''): Promise<WebApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ DEMO: '1', BASE_URL: `${origin}${contextPath}`, ...env });
  const server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    ...t,
    url: `${origin}${contextPath}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

export interface WebPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far (expected refusals can be filtered by the test). */
  problems: string[];
}

/** A fresh browser context (no cookies) with one page that records console errors; dialogs are accepted. */
export async function openPage(browser: Browser, opts: { width?: number; height?: number } = {}): Promise<WebPage> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('dialog', (d) => void d.accept());
  page.setDefaultTimeout(10_000);
  return { page, context, problems };
}

/** Signs in through the form and waits for the navigation bar. */
export async function signInThroughForm(page: Page, url: string, username: string, password: string, hash = ''): Promise<void> {
  await page.goto(`${url}/${hash}`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('logout').waitFor();
}

/** Console messages that are not the browser's note about an expected refused request (4xx). */
export function unexpected(problems: string[], allowedStatuses: number[] = []): string[] {
  return problems.filter((p) => !allowedStatuses.some((s) => p.includes(`status of ${s}`)));
}

/** The text of the first element the locator finds, once it is there. */
export async function textOf(locator: import('playwright-core').Locator): Promise<string> {
  await locator.first().waitFor();
  return (await locator.first().textContent()) ?? '';
}

/** Time allowed for a browser test file's setup (a demo database, the app and chromium) on a busy machine. */
export const BROWSER_SETUP_MS = 180_000;

export interface AppAndBrowser {
  app: WebApp;
  browser: Browser;
}

/**
 * The setup every browser test file shares: a `beforeAll` that starts the app (`startWebApp(env, contextPath)`) and
 * takes the worker's chromium (`sharedBrowser`, launched alongside when it is the first file) and hands both to
 * `ready` (the file keeps them in its own variables), and an `afterAll` that closes the app and every browser
 * context the file opened.
 */
export function useAppAndBrowser(
  opts: { env?: Record<string, string>; contextPath?: string },
  ready: (s: AppAndBrowser) => void,
): void {
  let app: WebApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startWebApp(opts.env, opts.contextPath), sharedBrowser()]);
    ready({ app, browser });
  }, BROWSER_SETUP_MS);
  afterAll(async () => {
    if (browser) await closeContexts(browser);
    await app?.close();
  });
}

export interface SignedInBrowser extends AppAndBrowser {
  webPage: WebPage;
  /** `webPage.page`, signed in. */
  page: Page;
}

/**
 * `useAppAndBrowser`, then one page signed in: a second `beforeAll` runs `prepare` on the app, opens a page
 * (`openPage`), signs `user` in through the form and hands all to `ready`.
 */
export function useSignedInBrowser(
  opts: {
    user: { name: string; password: string };
    env?: Record<string, string>;
    prepare?: (app: WebApp) => unknown;
  },
  ready: (s: SignedInBrowser) => void,
): void {
  let started: AppAndBrowser;
  useAppAndBrowser({ env: opts.env }, (s) => (started = s));
  beforeAll(async () => {
    const { app, browser } = started;
    await opts.prepare?.(app);
    const webPage = await openPage(browser);
    await signInThroughForm(webPage.page, app.url, opts.user.name, opts.user.password);
    ready({ app, browser, webPage, page: webPage.page });
  }, BROWSER_SETUP_MS);
}
