// Wiki fixtures, made through the wiki host's REST surface (docs/host-api.md "Wiki"), as a script would: spaces and
// their permissions (POST /rest/api/space, …/permission), pages, blog posts and comments (POST /rest/api/content),
// read restrictions (PUT …/restriction) and the trash (DELETE). Code boxes are macros in the saved storage XHTML,
// so the wiki's save indexes them as it does for every client. Two styles:
// - functions (`createSpace`, `createContent`, `multiBox`) for tests about the wiki REST itself;
// - `WikiFixtures`, a helper that builds content as one author of its own, for tests that need a wiki in a
//   given state (restricted trees, trashed content, code boxes) without caring who wrote it.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { uniq, type TestApp, type TestUser } from './test-app.ts';

/** A path of the wiki REST (`/rest/api…`) under the app's context path (`BASE_URL`'s path). */
const api = (t: TestApp, path: string) => `${t.config.contextPath}/rest/api${path}`;

export interface Grantees {
  users?: string[];
  groups?: string[];
}

export type ContentType = 'page' | 'blogpost' | 'comment';

export type CodeboxKind = 'advanced-codeblock-macro' | 'advanced-single-codeblock-macro' | 'advanced-remote-codeblock-macro';

export interface ContentJson {
  id: string;
  type: ContentType;
  title: string;
  version: { number: number };
  body: { storage: { value: string } };
}

/** Grants `read` or `create` (on the whole space unless `target` says otherwise) as the administrator. */
export async function grantSpace(
  t: TestApp,
  key: string,
  subject: { user: string } | { group: string },
  operation: 'read' | 'create',
  target: 'space' | ContentType = 'space',
): Promise<number> {
  const res = await t.http
    .post(api(t, `/space/${key}/permission`))
    .set('Authorization', t.adminAuth)
    .send({
      subject: 'user' in subject ? { type: 'user', identifier: subject.user } : { type: 'group', identifier: subject.group },
      operation: { key: operation, target },
    });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

/** A space (as the administrator) whose `read` and `create` go to the given users and groups. */
export async function createSpace(
  t: TestApp,
  key: string,
  readers: Grantees = {},
  creators: Grantees = {},
  name = `Space ${key}`,
  opts: { keepCreatorGrants?: boolean } = {},
): Promise<{ id: number; key: string }> {
  const res = await t.http.post(api(t, '/space')).set('Authorization', t.adminAuth).send({ key, name });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // The creator gets read, create and administer in its space; they are removed again unless asked to keep
  // them, so that these tests keep proving that administrators have no implicit view right.
  if (!opts.keepCreatorGrants) {
    const list = await t.http.get(api(t, `/space/${key}/permission`)).set('Authorization', t.adminAuth);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    for (const p of list.body.results as { id: number; subject: { type: string; identifier: string } }[]) {
      if (p.subject.type !== 'user' || p.subject.identifier !== 'admin') continue;
      const del = await t.http.delete(api(t, `/space/${key}/permission/${p.id}`)).set('Authorization', t.adminAuth);
      expect(del.status).toBe(204);
    }
  }
  for (const group of readers.groups ?? []) await grantSpace(t, key, { group }, 'read');
  for (const user of readers.users ?? []) await grantSpace(t, key, { user }, 'read');
  for (const group of creators.groups ?? []) await grantSpace(t, key, { group }, 'create');
  for (const user of creators.users ?? []) await grantSpace(t, key, { user }, 'create');
  return res.body as { id: number; key: string };
}

/** Creates content as `auth`; `parent` and `container` are content ids. Answers the content with its stored body. */
export async function createContent(
  t: TestApp,
  auth: string,
  c: { type?: ContentType; title?: string; space: string; body?: string; parent?: string | number; container?: string | number },
): Promise<ContentJson> {
  const res = await t.http
    .post(api(t, '/content'))
    .set('Authorization', auth)
    .send({
      type: c.type ?? 'page',
      title: c.title,
      space: { key: c.space },
      ...(c.parent !== undefined ? { ancestors: [{ id: String(c.parent) }] } : {}),
      ...(c.container !== undefined ? { container: { id: String(c.container), type: 'page' } } : {}),
      body: { storage: { value: c.body ?? '<p>hello</p>', representation: 'storage' } },
    });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ContentJson;
}

/** Replaces the read restriction of content as `auth` (empty lists lift it). */
export async function restrictContent(t: TestApp, auth: string, contentId: string | number, allowed: Grantees): Promise<void> {
  const res = await t.http
    .put(api(t, `/content/${contentId}/restriction`))
    .set('Authorization', auth)
    .send([
      {
        operation: 'read',
        restrictions: {
          user: (allowed.users ?? []).map((username) => ({ type: 'known', username })),
          group: (allowed.groups ?? []).map((name) => ({ type: 'group', name })),
        },
      },
    ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Moves content (and its comments) to the trash as `auth`. */
export async function trashContent(t: TestApp, auth: string, contentId: string | number): Promise<void> {
  const res = await t.http.delete(api(t, `/content/${contentId}`)).set('Authorization', auth);
  expect(res.status, JSON.stringify(res.body)).toBe(204);
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/**
 * A code-box macro in storage XHTML. The body is escaped text rather than CDATA, with CR as `&#13;`, so that
 * every text storage can hold arrives in the index unchanged (`]]>` and CR LF included; XML would turn a raw
 * CR LF into LF). `body` undefined: a macro without a body. XML 1.0 cannot carry most C0 control characters.
 */
export function codeboxMacro(kind: CodeboxKind, body: string | undefined, parameters: Record<string, string> = {}, macroId?: string): string {
  const id = macroId === undefined ? '' : ` ac:macro-id="${escapeAttribute(macroId)}"`;
  const params = Object.entries(parameters)
    .map(([name, value]) => `<ac:parameter ac:name="${escapeAttribute(name)}">${escapeText(value)}</ac:parameter>`)
    .join('');
  const text = body === undefined ? '' : `<ac:plain-text-body>${escapeText(body).replace(/\r/g, '&#13;')}</ac:plain-text-body>`;
  return `<ac:structured-macro ac:name="${kind}" ac:schema-version="1"${id}>${params}${text}</ac:structured-macro>`;
}

/** An `advanced-codeblock-macro` with a CDATA body, as the wiki's editor writes it; parameter values are markup. */
export const multiBox = (id: string | undefined, body: string, params: Record<string, string> = {}) =>
  `<ac:structured-macro ac:name="advanced-codeblock-macro" ac:schema-version="1"${id ? ` ac:macro-id="${id}"` : ''}>` +
  Object.entries(params).map(([k, v]) => `<ac:parameter ac:name="${k}">${v}</ac:parameter>`).join('') +
  `<ac:plain-text-body><![CDATA[${body}]]></ac:plain-text-body></ac:structured-macro>`;

/** Base64 block key of a section name, as a client computes it. */
export const keyOf = (name: string) => Buffer.from(name, 'utf8').toString('base64');

/**
 * A wiki built through REST by one author of its own (a user created on first use, with `read` and `create`
 * on every space made here, in no group and never named in a restriction), so the users a test is about hold
 * exactly the rights the test gives them. The author must still view what it changes: create the content of a
 * tree first, then restrict or trash it.
 */
export class WikiFixtures {
  private author: Promise<TestUser> | undefined;

  constructor(private readonly t: TestApp) {}

  private authorUser(): Promise<TestUser> {
    this.author ??= this.t.createUser(uniq('wiki-author-'));
    return this.author;
  }

  private async authorAuth(): Promise<string> {
    return (await this.authorUser()).auth;
  }

  /** A space whose `read` (and `create`) permissions go to the given users and groups; answers its key. */
  async space(key: string, readers: Grantees = {}, creators: Grantees = {}, name?: string): Promise<string> {
    const author = await this.authorUser();
    await createSpace(this.t, key, readers, creators, name);
    await grantSpace(this.t, key, { user: author.name }, 'read');
    await grantSpace(this.t, key, { user: author.name }, 'create');
    return key;
  }

  /** Content of the space; a comment needs `containerId`, a child page `parentId`. Answers its id. */
  async content(c: { space: string; type?: ContentType; title?: string; parentId?: number; containerId?: number; body?: string }): Promise<number> {
    const type = c.type ?? 'page';
    const created = await createContent(this.t, await this.authorAuth(), {
      type,
      // Comments take their title from the container.
      title: type === 'comment' ? undefined : (c.title ?? `Title ${randomUUID().slice(0, 8)}`),
      space: c.space,
      parent: c.parentId,
      container: c.containerId,
      body: c.body ?? '<p>fixture</p>',
    });
    return Number(created.id);
  }

  /** Adds a code box to the end of the content's body (a new version, saved as a client saves); answers its macro id. */
  async codebox(contentId: number, kind: CodeboxKind, body: string | undefined, parameters: Record<string, string> = {}, macroId: string = randomUUID()): Promise<string> {
    const auth = await this.authorAuth();
    const current = await this.t.http.get(api(this.t, `/content/${contentId}?expand=body.storage,version`)).set('Authorization', auth);
    expect(current.status, JSON.stringify(current.body)).toBe(200);
    const res = await this.t.http
      .put(api(this.t, `/content/${contentId}`))
      .set('Authorization', auth)
      .send({
        version: { number: (current.body.version.number as number) + 1 },
        body: { storage: { value: (current.body.body.storage.value as string) + codeboxMacro(kind, body, parameters, macroId), representation: 'storage' } },
      });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The wiki re-issues an id already used in the body; the caller's id must have been kept.
    expect(res.body.body.storage.value as string).toContain(`ac:macro-id="${escapeAttribute(macroId)}"`);
    return macroId;
  }

  /** Replaces the read restriction: only these users and groups (and not the author) may view the content. */
  async restrict(contentId: number, allowed: Grantees): Promise<void> {
    await restrictContent(this.t, await this.authorAuth(), contentId, allowed);
  }

  /** Moves the content, with its comments, to the trash. */
  async trash(contentId: number): Promise<void> {
    await trashContent(this.t, await this.authorAuth(), contentId);
  }
}
