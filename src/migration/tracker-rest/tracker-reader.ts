// Reads a live tracker that runs the field editor, over the interfaces the original serves: the host's field
// list for type keys, the add-on's admin endpoints for fields, contexts and grants, its user endpoints for the
// option tree (every level) and defaults, and the host's user and group endpoints for what grants name.
// The add-on's base path is `1`; an old installation answers only under `1.2`, so a 404 there switches to it.
import { isNotFound, SourceHttpError, type SourceClient } from '../source-http.ts';
import { isCascading, isEditableSelect, isMultiLevel } from '../../fieldeditor/access/field-kinds.ts';
import { shortFieldType, SYSTEM_PREFIX } from '../../tracker/field-types.ts';
import * as s from './tracker-source.schemas.ts';
import type { SourceContext, SourceFieldHeader, SourceGrant, SourceOption, SourcePrincipals, SourceTrackerField } from './tracker-model.ts';

const PLUGIN = 'rest/jiracustomfieldeditorplugin';
const MAX_DEPTH = 16;
const PARALLEL = 4;
const PROGRESS_EVERY = 200;

/** At most `max` calls at once; a finished call hands its slot straight to the next waiting one. */
class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active < this.max) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** The full type key behind the add-on's short `fieldType` (host-api.md: `singleselect` is `…:select`). */
export function typeKeyOf(fieldType: string): string {
  if (fieldType.includes(':')) return fieldType;
  return SYSTEM_PREFIX + (fieldType === 'singleselect' ? 'select' : fieldType);
}

export class TrackerReader {
  private base = `${PLUGIN}/1`;
  readonly warnings: string[] = [];

  constructor(
    private readonly client: SourceClient,
    private readonly progress: (m: string) => void,
  ) {}

  /** The select fields the add-on serves, with their full type keys. Fails (one line) when the source cannot be read. */
  async fields(): Promise<SourceFieldHeader[]> {
    let list: ReturnType<typeof s.fieldList.parse>;
    try {
      list = await this.client.getJson(`${this.base}/admin/customfields`, undefined, s.fieldList);
    } catch (err) {
      if (err instanceof SourceHttpError && err.kind === 'forbidden') {
        throw new SourceHttpError('forbidden', `${this.client.origin} lets only administrators list the field editor's fields (403): import as an administrator of the source`, 403);
      }
      if (!isNotFound(err)) throw err;
      this.base = `${PLUGIN}/1.2`;
      try {
        list = await this.client.getJson(`${this.base}/admin/customfields`, undefined, s.fieldList);
      } catch (again) {
        if (isNotFound(again)) throw new SourceHttpError('not-found', `${this.client.origin} does not run the field editor (no ${PLUGIN}/1 or /1.2)`);
        throw again;
      }
    }
    this.progress(`tracker: the field editor answers under ${this.base}`);
    const hostKeys = await this.hostTypeKeys();
    return list
      .map((f) => ({ id: f.fieldId, name: f.fieldName, description: f.fieldDescription ?? '', typeKey: hostKeys.get(f.fieldId) ?? typeKeyOf(f.fieldType) }))
      .filter((f) => isEditableSelect({ typeKey: f.typeKey, fieldType: shortFieldType(f.typeKey) }));
  }

  /** Type keys from the host's field list (the add-on's short names lose vendor detail on some versions). */
  private async hostTypeKeys(): Promise<Map<number, string>> {
    const keys = new Map<number, string>();
    try {
      for (const f of await this.client.getJson('rest/api/2/field', undefined, s.hostFieldList)) {
        const id = f.schema?.customId ?? Number(/^customfield_(\d+)$/.exec(f.id)?.[1] ?? NaN);
        if (f.schema?.custom && Number.isInteger(id)) keys.set(id, f.schema.custom);
      }
    } catch (err) {
      if (!(err instanceof SourceHttpError) || err.kind === 'unauthorized') throw err;
      this.warnings.push(`the host's field list could not be read (${err.message}); type keys come from the field editor`);
    }
    return keys;
  }

  /** Everything the field editor keeps about one field. */
  async field(h: SourceFieldHeader): Promise<SourceTrackerField> {
    const f = `${this.base}/admin/customfields/${h.id}`;
    const contexts = await this.client.getJson(`${f}/contexts`, { expand: 'projects,issueTypes' }, s.contextList);
    const defaultId = await this.defaultContextId(h.id, contexts[0]?.contextId);
    const out: SourceContext[] = [];
    for (const c of contexts) {
      const list = `${this.base}/user/customfields/${h.id}/contexts/${c.contextId}/options`;
      out.push({
        id: c.contextId,
        name: c.contextName,
        description: c.contextDescription ?? '',
        isDefault: c.contextId === defaultId,
        ...(c.projects ? { projects: c.projects.map((p) => ({ key: p.projectKey, name: p.projectName, description: p.projectDescription ?? '' })) } : {}),
        ...(c.issueTypes
          ? { issueTypes: c.issueTypes.map((t) => ({ name: t.issueTypeName, description: t.issueTypeDescription ?? '', subtask: t.issueTypeIsSubTask ?? false })) }
          : {}),
        options: await this.optionTree(h, list),
        defaultOptionIds: await this.defaultIds(list),
      });
    }
    return { ...h, contexts: out, grants: await this.grants(f) };
  }

  /**
   * The context `default` addresses: U3 names it (since 2.0.0); before that, A5's first context is taken, since
   * A5 lists the default context first.
   */
  private async defaultContextId(fieldId: number, first: number | undefined): Promise<number | undefined> {
    try {
      return (await this.client.getJson(`${this.base}/user/customfields/${fieldId}/contexts/default`, undefined, s.contextOfField)).context.contextId;
    } catch (err) {
      if (err instanceof SourceHttpError && err.kind !== 'unauthorized' && err.kind !== 'unreachable') return first;
      throw err;
    }
  }

  private async optionTree(h: SourceFieldHeader, list: string): Promise<SourceOption[]> {
    const field = { typeKey: h.typeKey, fieldType: shortFieldType(h.typeKey) };
    const maxDepth = isMultiLevel(field) ? MAX_DEPTH : isCascading(field) ? 1 : 0;
    let lists = 0;
    // Each option's children are one request: a few run at once, so a tree of thousands is not read one round trip at a time.
    const limiter = new Limiter(PARALLEL);
    const read = async (path: string, depth: number): Promise<SourceOption[]> => {
      const rows = await limiter.run(() => this.client.getJson(path, undefined, s.optionList));
      if (++lists % PROGRESS_EVERY === 0) this.progress(`tracker: field ${h.name}: ${lists} option lists read`);
      return Promise.all(
        rows.map(async (r) => ({
          id: r.id,
          value: r.optionvalue,
          disabled: r.disabled ?? false,
          children: depth < maxDepth ? await read(`${list}/${r.id}/childoptions`, depth + 1) : [],
        })),
      );
    };
    return read(list, 0);
  }

  private async defaultIds(list: string): Promise<number[]> {
    let d;
    try {
      d = await this.client.getJson(`${list}/default`, undefined, s.defaultRead);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
    if (!d) return [];
    if (d.defaultOptions) return d.defaultOptions.map((o) => o.id);
    return [d.defaultOption?.id, d.defaultChildOption?.id].filter((id): id is number => id !== undefined);
  }

  private async grants(fieldPath: string): Promise<SourceGrant[]> {
    const out: SourceGrant[] = [];
    const add = (contextId: number | null, p: { userlist?: string[] | null; grouplist?: string[] | null }) => {
      for (const name of p.userlist ?? []) out.push({ contextId, type: 'user', name });
      for (const name of p.grouplist ?? []) out.push({ contextId, type: 'group', name });
    };
    add(null, await this.client.getJson(fieldPath, undefined, s.permissionLists));
    try {
      for (const c of await this.client.getJson(`${fieldPath}/contexts/permissions`, undefined, s.contextPermissions)) add(c.contextId, c);
    } catch (err) {
      // Context grants came with 1.2.1; an older source has none to give.
      if (!isNotFound(err)) throw err;
    }
    return out;
  }

  /** The users and groups the grants name, with group members, as the source knows them. */
  async principals(field: SourceTrackerField): Promise<SourcePrincipals> {
    const users: SourcePrincipals['users'] = new Map();
    const groups: SourcePrincipals['groups'] = new Map();
    const wantUser = async (name: string) => {
      if (users.has(name)) return;
      try {
        const u = await this.client.getJson('rest/api/2/user', { username: name }, s.hostUser);
        users.set(name, { name: u.name, displayName: u.displayName ?? u.name, email: u.emailAddress ?? '', active: u.active ?? true });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        users.set(name, null);
      }
    };
    for (const g of field.grants) {
      if (g.type === 'user') await wantUser(g.name);
      else if (!groups.has(g.name)) {
        const members = await this.members(g.name);
        groups.set(g.name, members === null ? null : { name: g.name, members });
        for (const m of members ?? []) await wantUser(m);
      }
    }
    return { users, groups };
  }

  private async members(group: string): Promise<string[] | null> {
    const names: string[] = [];
    try {
      const pages = this.client.paged<{ name: string }>('rest/api/2/group/member', {
        query: { groupname: group },
        pageSize: 50,
        items: (b) => {
          const page = s.memberPage.safeParse(b);
          if (!page.success) throw new SourceHttpError('bad-answer', `${this.client.origin} answered an unexpected member list for group ${group}`);
          return page.data.values;
        },
      });
      for await (const m of pages) names.push(m.name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.warnings.push(`the members of group ${group} could not be read from the source; the group is created without them`);
      return null;
    }
    return names;
  }
}
