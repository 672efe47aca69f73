// Shared helpers of the code-block integration tests: a strict XML reader, per-generation expectations of
// every error body, and a standard data set (readers, outsiders, restricted trees, trashed content) made through
// the wiki REST.
import { randomUUID } from 'node:crypto';
import { SaxesParser } from 'saxes';
import { expect } from 'vitest';
import type { Response } from 'supertest';
import type { TestApp, TestUser } from '../../helpers/test-app.ts';
import { codeboxMacro, WikiFixtures } from '../../helpers/wiki-fixtures.ts';

export interface XmlNode {
  name: string;
  text: string;
  children: XmlNode[];
}

/** Parses with a strict XML 1.0 parser (throws on anything malformed or on forbidden characters). */
export function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: false });
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  parser.on('opentag', (t) => {
    const node: XmlNode = { name: t.name, text: '', children: [] };
    stack.at(-1)?.children.push(node);
    stack.push(node);
    root ??= node;
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => {
    const top = stack.at(-1);
    if (top) top.text += t;
  });
  parser.on('error', (e) => {
    throw e;
  });
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** `{child: text}` of the element's children (leaf values only). */
export function fields(node: XmlNode): Record<string, string> {
  return Object.fromEntries(node.children.map((c) => [c.name, c.text]));
}

export type Gen = '5' | '4' | '3.4';
export type Endpoint = 'E1' | 'code' | 'E2' | 'E3';

export const ENDPOINT_PATHS: Record<Endpoint, string> = {
  E1: '/rest/advancedcodeblocks/1/download_code/plain_text',
  code: '/rest/advancedcodeblocks/1/code',
  E2: '/rest/advancedcodeblocks/1/download_list/xml',
  E3: '/rest/advancedcodeblocks/1/download_list/json',
};

const HOST_401 = 'Client must be authenticated to access this resource.';
const keys = (gen: Gen) =>
  gen === '3.4'
    ? { u: '401 UNAUTHORIZED', f: '403 FORBIDDEN', e: '500 ERROR' }
    : { u: '401_UNAUTHORIZED', f: '403_FORBIDDEN', e: '500_ERROR' };

/** The body of an error as a plain object, whatever the endpoint's format (checking the content type). */
export function errorBody(endpoint: Endpoint, res: Response): Record<string, unknown> | string {
  const type = res.headers['content-type'];
  if (endpoint === 'E2') {
    expect(type).toBe('application/xml; charset=utf-8');
    const root = parseXml(res.text);
    return { root: root.name, ...fields(root) };
  }
  if (endpoint === 'E3') {
    expect(type).toBe('application/json; charset=utf-8');
    return JSON.parse(res.text) as Record<string, unknown>;
  }
  expect(type).toBe('text/plain; charset=utf-8');
  return res.text;
}

export function expect401(gen: Gen, endpoint: Endpoint, res: Response): void {
  expect(res.status).toBe(401);
  const body = errorBody(endpoint, res);
  if (gen === '5') {
    if (endpoint === 'E2') expect(body).toEqual({ root: 'status', 'status-code': '401', message: HOST_401 });
    else if (endpoint === 'E3') expect(body).toEqual({ message: HOST_401, 'status-code': 401 });
    else expect(body).toBe(`${HOST_401}\n`);
    return;
  }
  const app = { error: keys(gen).u, message: 'no logged in user found' };
  if (endpoint === 'E2') expect(body).toEqual({ root: 'advancedCodeblockMacro', ...app });
  else if (endpoint === 'E3') expect(body).toEqual(app);
  else expect(body).toBe('no logged in user found\n');
}

export function expect403(gen: Gen, endpoint: Endpoint, res: Response, contentId: number): void {
  expect(res.status).toBe(403);
  const body = errorBody(endpoint, res);
  const app = { error: keys(gen).f, message: `no read permission on page with id ${contentId}` };
  if (endpoint === 'E2') expect(body).toEqual({ root: 'advancedCodeblockMacro', ...app });
  else if (endpoint === 'E3') expect(body).toEqual(app);
  else expect(body).toBe(`${app.message}\n`);
}

/** 500 with the refined key (generations 5 and 4) or `500 ERROR` (3.4); `extra` is matched as a substring. */
export function expect500(gen: Gen, endpoint: Endpoint, res: Response, kind: string, extra?: string): void {
  expect(res.status).toBe(500);
  const body = errorBody(endpoint, res);
  const message = 'Did you provide valid URL-Parameters?';
  if (gen === '3.4') {
    const app = { error: keys(gen).e, message };
    if (endpoint === 'E2') expect(body).toEqual({ root: 'advancedCodeblockMacro', ...app });
    else if (endpoint === 'E3') expect(body).toEqual(app);
    else expect(body).toBe(`${message}\n`);
    return;
  }
  const error = `500_ERROR_${kind}_EXCEPTION`;
  const extraMatch = extra === undefined ? expect.any(String) : expect.stringContaining(extra);
  if (endpoint === 'E2') expect(body).toEqual({ root: 'advancedCodeblockMacro', error, message, extraMessage: extraMatch });
  else if (endpoint === 'E3') expect(body).toEqual({ error, message, extraMessage: extraMatch });
  else {
    expect(body).toMatch(new RegExp(`^${message.replace('?', '\\?')}\\n${error}: .+\\n$`));
    if (extra !== undefined) expect(body).toContain(extra);
  }
}

export const MULTI_BODY = '[alpha]\nhost = a.example.org\n\n[beta]\nhost = b.example.org\n\n[content]\nserver ${host};\n';

export interface Scenario {
  fx: WikiFixtures;
  reader: TestUser;
  readerBearer: string;
  outsider: TestUser;
  outsiderBearer: string;
  allowed: { contentId: number; macroId: string };
  blogpost: { contentId: number; macroId: string };
  comment: { contentId: number; macroId: string };
  /** Denied: the reader's groups have no read permission on the space. */
  noSpace: { contentId: number; macroId: string };
  /** Denied: a grand-parent page is restricted to someone else. */
  underRestricted: { contentId: number; macroId: string };
  /** Denied: a comment on a page restricted to someone else. */
  commentOfRestricted: { contentId: number; macroId: string };
  trashed: { contentId: number; macroId: string };
  /** A comment whose container page is trashed. */
  commentOfTrashed: { contentId: number; macroId: string };
}

/**
 * Builds the standard data set through the wiki REST (`tag` keeps names unique per test file). Each content is
 * saved with its code box; restrictions and the trash come last, since the author must view what it writes.
 */
export async function buildScenario(t: TestApp, tag: string): Promise<Scenario> {
  const fx = new WikiFixtures(t);
  const team = `team-${tag}`;
  const reader = await t.createUser(`reader-${tag}`, { groups: [team] });
  const outsider = await t.createUser(`outsider-${tag}`);
  const keeper = await t.createUser(`keeper-${tag}`, { groups: [team] });
  const space = await fx.space(`S${tag}`.toUpperCase().replace(/[^A-Z0-9]/g, ''), { groups: [team] });
  const otherSpace = await fx.space(`O${tag}`.toUpperCase().replace(/[^A-Z0-9]/g, ''), { users: [keeper.name] });

  /** Content holding one multi box; answers its id and the box's macro id. */
  const boxed = async (c: Parameters<WikiFixtures['content']>[0]) => {
    const macroId = randomUUID();
    const contentId = await fx.content({ ...c, body: `<p>box</p>${codeboxMacro('advanced-codeblock-macro', MULTI_BODY, {}, macroId)}` });
    return { contentId, macroId };
  };
  const allowed = await boxed({ space, title: 'Servers & more' });
  const blogpost = await boxed({ space, type: 'blogpost', title: 'Blog' });
  const comment = await boxed({ space, type: 'comment', containerId: allowed.contentId });
  const noSpace = await boxed({ space: otherSpace });
  const top = await fx.content({ space, title: 'Top' });
  const middle = await fx.content({ space, parentId: top });
  const underRestricted = await boxed({ space, parentId: middle });
  const restrictedPage = await fx.content({ space });
  const commentOfRestricted = await boxed({ space, type: 'comment', containerId: restrictedPage });
  const trashed = await boxed({ space });
  const trashedContainer = await fx.content({ space });
  const commentOfTrashed = await boxed({ space, type: 'comment', containerId: trashedContainer });
  await fx.restrict(top, { users: [keeper.name] });
  await fx.restrict(restrictedPage, { users: [keeper.name] });
  await fx.trash(trashed.contentId);
  await fx.trash(trashedContainer);

  return {
    fx,
    reader,
    readerBearer: await t.tokenFor(reader.name),
    outsider,
    outsiderBearer: await t.tokenFor(outsider.name),
    allowed,
    blogpost,
    comment,
    noSpace,
    underRestricted,
    commentOfRestricted,
    trashed,
    commentOfTrashed,
  };
}
