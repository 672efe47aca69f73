// Direct-to-table wiki data for the code-block tests: spaces with read permissions, pages, blog posts and
// comments, read restrictions, and code-box index rows built with the same library the wiki's save uses.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { CodeboxError, parseCodebox, type CodeboxKind } from '../../src/codeblocks/codebox/codebox.ts';
import { encodeBlockKey } from '../../src/codeblocks/codebox/block-key.ts';

export interface Grantees {
  users?: string[];
  groups?: string[];
}

export class WikiFixtures {
  constructor(private readonly knex: Knex) {}

  private async subjectIds(g: Grantees): Promise<{ user_id: number | null; group_id: number | null }[]> {
    const rows: { user_id: number | null; group_id: number | null }[] = [];
    for (const name of g.users ?? []) {
      const u = (await this.knex('users').where({ name_key: name.toLowerCase() }).first('id')) as { id: number } | undefined;
      if (!u) throw new Error(`fixture: no user ${name}`);
      rows.push({ user_id: u.id, group_id: null });
    }
    for (const name of g.groups ?? []) {
      const gr = (await this.knex('groups').where({ name_key: name.toLowerCase() }).first('id')) as { id: number } | undefined;
      if (!gr) throw new Error(`fixture: no group ${name}`);
      rows.push({ user_id: null, group_id: gr.id });
    }
    return rows;
  }

  /** A space whose `read` permission goes to the given users and groups. */
  async space(key: string, readers: Grantees = {}): Promise<number> {
    const [row] = (await this.knex('spaces').insert({ key, name: `Space ${key}` }).returning('id')) as { id: number }[];
    const spaceId = row!.id;
    for (const s of await this.subjectIds(readers)) {
      await this.knex('space_permissions').insert({ space_id: spaceId, ...s, operation: 'read', target: 'space' });
    }
    return spaceId;
  }

  async content(c: { spaceId: number; type?: 'page' | 'blogpost' | 'comment'; title?: string; parentId?: number; containerId?: number }): Promise<number> {
    const [row] = (await this.knex('contents')
      .insert({
        type: c.type ?? 'page',
        title: c.title ?? `Title ${randomUUID().slice(0, 8)}`,
        space_id: c.spaceId,
        parent_id: c.parentId ?? null,
        container_id: c.containerId ?? null,
        body: '<p>fixture</p>',
      })
      .returning('id')) as { id: number }[];
    return row!.id;
  }

  async restrict(contentId: number, allowed: Grantees): Promise<void> {
    for (const s of await this.subjectIds(allowed)) await this.knex('content_read_restrictions').insert({ content_id: contentId, ...s });
  }

  async trash(contentId: number): Promise<void> {
    await this.knex('contents').where({ id: contentId }).update({ status: 'trashed' });
  }

  /** Indexes a code box as the wiki's save would; returns its macro id. */
  async codebox(contentId: number, kind: CodeboxKind, body: string | undefined, parameters: Record<string, string> = {}, macroId: string = randomUUID()): Promise<string> {
    let sections = '[]';
    let template: string | null = null;
    let errorKind: string | null = null;
    try {
      const parsed = parseCodebox(kind, body, parameters);
      sections = JSON.stringify(parsed.sections.map((s) => ({ name: s.name, key: encodeBlockKey(s.name), values: Object.fromEntries(s.values) })));
      template = parsed.template ?? null;
    } catch (err) {
      if (!(err instanceof CodeboxError)) throw err;
      errorKind = err.kind;
    }
    await this.knex('codeboxes').insert({
      content_id: contentId,
      macro_id: macroId,
      kind,
      parameters: JSON.stringify(parameters),
      sections,
      template,
      error_kind: errorKind,
    });
    return macroId;
  }
}

/** Base64 block key of a section name, as a client computes it. */
export const keyOf = (name: string) => Buffer.from(name, 'utf8').toString('base64');
