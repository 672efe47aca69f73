// The one request pipeline (src/platform/http/pipeline.ts): a step added to the list runs on every road a
// request can take — a fast path's cached answer (code-block downloads, option lists), Express behind the fast
// paths, and Express alone (FAST_PATH=0) — exactly once per request, and a step that refuses is answered in the
// API's own error format on each of them. The steps are added here, in the test, the way a future step (a rate
// limit) would be added in src/app.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createRequestListener, type App } from '../../../src/app.ts';
import { createHttpServer } from '../../../src/server.ts';
import { AppError } from '../../../src/platform/http/app-error.ts';
import type { RequestStep } from '../../../src/platform/http/pipeline.ts';
import { send } from '../../helpers/fast-path-harness.ts';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createField, grant, paths } from '../../helpers/tracker-fixtures.ts';
import { codeboxMacro, createContent, createSpace, keyOf } from '../../helpers/wiki-fixtures.ts';

/** A step that counts the requests it saw and marks their answers; it refuses a request that asks for it. */
function probeStep(name: string) {
  const seen: string[] = [];
  const step: RequestStep = {
    name,
    run(req, res, next) {
      seen.push(req.url ?? '');
      res.setHeader(`X-${name}`, String(seen.length));
      next(req.headers['x-refuse'] === name ? new AppError(429, 'RATE_LIMITED', `refused by ${name}`) : undefined);
    },
  };
  return { step, seen };
}

describe('the request pipeline', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '1000' });
  const every = probeStep('Probe-Every');
  const api = probeStep('Probe-Api');
  const servers: http.Server[] = [];
  let fast: { port: number; app: App };
  let slow: { port: number };
  let reader: TestUser;
  let e1: string;
  let list: string;

  async function listen(fastPath: boolean) {
    const app = createApp(t.services, { steps: (d) => ({ everyRequest: [...d.everyRequest, every.step], apiRequest: [...d.apiRequest, api.step] }) });
    const listener = createRequestListener(t.services, app, fastPath);
    const server = createHttpServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return { port: (server.address() as AddressInfo).port, app };
  }

  beforeAll(async () => {
    fast = await listen(true);
    slow = await listen(false);
    reader = await t.createUser('pipe-reader', { groups: ['pipe-team'] });
    await createSpace(t, 'PIPE', { groups: ['pipe-team'] }, {}, 'Pipeline', { keepCreatorGrants: true });
    const macro = randomUUID();
    const page = (await createContent(t, t.adminAuth, { space: 'PIPE', title: 'Pipe', body: codeboxMacro('advanced-single-codeblock-macro', 'ls\n', {}, macro) })).id;
    e1 = `/rest/advancedcodeblocks/1/download_code/plain_text?key=${encodeURIComponent(keyOf('raw'))}&macroId=${macro}&contentId=${page}`;
    const field = await createField(t);
    await grant(t, field.id, { user: reader.name });
    list = paths(field.id, 'default').options;
    await addOptions(t, reader.auth, list, ['One', 'Two']);
  });
  afterAll(() => {
    for (const s of servers) s.close();
  });

  /** Sends one request and answers it with how many times each probe saw it. */
  async function probe(port: number, path: string, headers: Record<string, string> = {}) {
    const before = { every: every.seen.length, api: api.seen.length };
    const answer = await send(port, 'GET', path, { Authorization: reader.auth, ...headers });
    return { answer, every: every.seen.length - before.every, api: api.seen.length - before.api };
  }

  it.each([
    ['a download the fast path answers', () => e1, () => fast.app.fastPaths.get('codeblocks')!.answered],
    ['an option list the fast path answers', () => list, () => fast.app.fastPaths.get('fieldeditor')!.answered],
  ])('runs every step once for %s', async (_name, path, answered) => {
    await probe(fast.port, path()); // warms the caches
    const before = answered();
    const { answer, every: e, api: a } = await probe(fast.port, path());
    expect(answered() - before).toBe(1);
    expect(answer.status).toBe(200);
    expect([e, a]).toEqual([1, 1]);
    expect(answer.headers['x-probe-api']).toBeDefined();
  });

  it.each([
    ['Express behind the fast paths', () => fast.port],
    ['Express alone (FAST_PATH=0)', () => slow.port],
  ])('runs every step once on %s', async (_name, port) => {
    for (const path of [e1, list, '/rest/api/2/myself']) {
      const { answer, every: e, api: a } = await probe(port(), path);
      expect(answer.status).toBe(200);
      expect([e, a]).toEqual([1, 1]);
    }
  });

  it('runs the steps for every request, and not the API steps, outside the APIs', async () => {
    const { answer, every: e, api: a } = await probe(fast.port, '/status');
    expect(answer.status).toBe(200);
    expect([e, a]).toEqual([1, 0]);
  });

  it('runs a cache miss through the steps once, even when the fast path hands it to Express', async () => {
    const before = fast.app.fastPaths.get('codeblocks')!.answered;
    const { answer, every: e, api: a } = await probe(fast.port, `${e1}&asciiOnly=true`);
    expect(answer.status).toBe(200);
    expect(fast.app.fastPaths.get('codeblocks')!.answered).toBe(before);
    expect([e, a]).toEqual([1, 1]);
  });

  // Each API's own 429: the code-block API's plain text is the message (issue 30: its documented 429 body), the JSON APIs' their shapes.
  it.each([
    ['a cached download', () => e1, /^refused by Probe-Api\n$/],
    ['a cached option list', () => list, /"statusCode":429/],
    ['an Express route', () => '/rest/api/2/myself', /"errorMessages":\["refused by Probe-Api"\]/],
  ])('answers a step that refuses %s in the API format, on both roads', async (_name, path, shape) => {
    for (const port of [fast.port, slow.port]) {
      await probe(port, path()); // warm
      const { answer } = await probe(port, path(), { 'X-Refuse': 'Probe-Api' });
      expect(answer.status).toBe(429);
      expect(answer.body.toString()).toMatch(shape);
    }
    const viaFast = await probe(fast.port, path(), { 'X-Refuse': 'Probe-Api' });
    const viaSlow = await probe(slow.port, path(), { 'X-Refuse': 'Probe-Api' });
    expect(viaFast.answer.body.equals(viaSlow.answer.body)).toBe(true);
  });

  it('runs no API step after authentication refused the request', async () => {
    const { answer, api: a } = await probe(fast.port, e1, { Authorization: `Basic ${Buffer.from('pipe-reader:wrong').toString('base64')}` });
    expect(answer.status).toBe(401);
    expect(a).toBe(0);
  });
});
