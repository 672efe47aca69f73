import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { trackerWrite } from '../../tracker/tracker-write.ts';
import { usersRepository } from '../../directory/users.repository.ts';
import { groupsRepository } from '../../directory/groups.repository.ts';
import { AppError, type FieldProblem } from '../../platform/http/app-error.ts';
import { contextsOfField } from '../../tracker/contexts.service.ts';
import type { ContextRef, FieldRef } from '../../tracker/refs.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { fieldRecord, fullnames, permissionRecord, type KnownUser } from '../shared/fieldeditor.presenters.ts';
import { validationError } from '../shared/fieldeditor.errors.ts';
import { grantsRepository, type GrantRow, type Principal } from './grants.repository.ts';
import type { ContextPermissionsInput, PatchInput } from './grants.schemas.ts';
import type { EventLog } from '../maintenance/event-log.ts';

/** Case-insensitive de-duplication that keeps the first spelling. */
const dedupe = (names: readonly string[]) => [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];

/**
 * Grants of the field editor (A2–A4, A9, A10): global grants (context null) and per-context grants, kept by
 * principal name. Every write is one transaction; unknown users or groups are refused before anything changes.
 */
export class GrantsService {
  constructor(
    private readonly knex: Knex,
    private readonly baseUrl: string,
    private readonly changes: ChangeFeed,
    private readonly access: FieldAccess,
    private readonly eventLog: EventLog,
  ) {}

  /** 400 naming each user or group that does not exist (A3 since 2.0.0; A4 GRANT and A10 alike). */
  private async checkPrincipals(q: Knex, users: readonly string[], groups: readonly string[], where = ''): Promise<void> {
    const [foundUsers, foundGroups] = await Promise.all([usersRepository.findByNames(q, users), groupsRepository.findByNames(q, groups)]);
    const u = new Set(foundUsers.map((x) => x.name.toLowerCase()));
    const g = new Set(foundGroups.map((x) => x.name.toLowerCase()));
    const problems: FieldProblem[] = [
      ...users.filter((n) => !u.has(n.toLowerCase())).map((n) => ({ name: 'userlist', message: `The user '${n}' does not exist${where}.`, value: n })),
      ...groups.filter((n) => !g.has(n.toLowerCase())).map((n) => ({ name: 'grouplist', message: `The group '${n}' does not exist${where}.`, value: n })),
    ];
    if (problems.length > 0) throw validationError(problems);
  }

  private async known(rows: readonly GrantRow[]): Promise<Map<string, KnownUser>> {
    const names = rows.filter((r) => r.principal_type === 'user').map((r) => r.principal_name);
    const users = await usersRepository.findByNames(this.knex, names);
    return new Map(users.map((u) => [u.name.toLowerCase(), { name: u.name, displayName: u.display_name }]));
  }

  /** Every grant of these fields (A1's pages list them; the fields room asks here). */
  ofFields(fieldIds: readonly number[]): Promise<GrantRow[]> {
    return grantsRepository.ofFields(this.knex, fieldIds);
  }

  /** A2: global permission record, optionally with the field and the users' full names. */
  async globalPermission(rawFieldId: string, expand: ReadonlySet<string>) {
    const field = await this.access.field(rawFieldId);
    const rows = await grantsRepository.ofField(this.knex, field.id, 'global');
    return {
      ...permissionRecord(rows),
      ...(expand.has('userlistWithFullnames') ? { userlistWithFullnames: fullnames(this.baseUrl, rows, await this.known(rows)) } : {}),
      ...(expand.has('field') ? { field: fieldRecord(field) } : {}),
    };
  }

  /** A3: replaces the global lists completely. */
  async replaceGlobal(actor: string, rawFieldId: string, body: { userlist: string[]; grouplist: string[] }): Promise<void> {
    const users = dedupe(body.userlist);
    const groups = dedupe(body.grouplist);
    await trackerWrite(this.knex, this.changes, async (trx) => {
      const field = await this.access.field(rawFieldId, trx);
      await this.checkPrincipals(trx, users, groups);
      const before = permissionRecord(await grantsRepository.ofField(trx, field.id, 'global'));
      await grantsRepository.clear(trx, field.id, 'global');
      await grantsRepository.add(trx, field.id, null, principals(users, groups));
      const after = permissionRecord(await grantsRepository.ofField(trx, field.id, 'global'));
      await this.eventLog.record(trx, { actor, kind: 'grants.replaced', fieldId: field.id, target: { type: 'grants', scope: 'global' }, before, after });
    });
  }

  /** A4: grants or revokes one principal; idempotent; answers the resulting (global or context) record. */
  async patch(actor: string, rawFieldId: string, body: PatchInput) {
    const p: Principal = body.user !== undefined ? { type: 'user', name: body.user } : { type: 'group', name: body.group ?? '' };
    return trackerWrite(this.knex, this.changes, async (trx) => {
      const field = await this.access.field(rawFieldId, trx);
      let context: ContextRef | null = null;
      if (body.type === 'CONTEXT') context = await this.contextInBody(trx, field, body.contextId ?? '');
      const record = async () => {
        if (context === null) return permissionRecord(await grantsRepository.ofField(trx, field.id, 'global'));
        const rows = (await grantsRepository.ofField(trx, field.id, 'contexts')).filter((r) => r.context_id === context.id);
        return { contextId: context.id, ...permissionRecord(rows) };
      };
      const before = await record();
      if (body.action === 'GRANT') {
        await this.checkPrincipals(trx, p.type === 'user' ? [p.name] : [], p.type === 'group' ? [p.name] : []);
        await grantsRepository.add(trx, field.id, context?.id ?? null, [p]);
      } else {
        await grantsRepository.remove(trx, field.id, context?.id ?? null, p);
      }
      const after = await record();
      await this.eventLog.record(trx, {
        actor,
        kind: body.action === 'GRANT' ? 'grant.granted' : 'grant.revoked',
        fieldId: field.id,
        contextId: context?.id ?? null,
        target: { type: p.type, name: p.name, scope: body.type === 'GLOBAL' ? 'global' : 'context' },
        before,
        after,
      });
      return after;
    });
  }

  /** A9: one record per context of the field (default first), with empty lists where nothing is granted. */
  async contextPermissions(rawFieldId: string, expand: ReadonlySet<string>) {
    return this.contextRecords(await this.access.field(rawFieldId), expand, this.knex);
  }

  private async contextRecords(field: FieldRef, expand: ReadonlySet<string>, q: Knex) {
    const [contexts, rows] = await Promise.all([contextsOfField(q, field.id), grantsRepository.ofField(q, field.id, 'contexts')]);
    const known = expand.has('userlistWithFullnames') ? await this.known(rows) : undefined;
    return contexts.map((c) => {
      const mine = rows.filter((r) => r.context_id === c.id);
      return { contextId: c.id, ...permissionRecord(mine), ...(known ? { userlistWithFullnames: fullnames(this.baseUrl, mine, known) } : {}) };
    });
  }

  /** A10: replaces every context grant of the field; contexts not in the body keep none. */
  async replaceContextPermissions(actor: string, rawFieldId: string, body: ContextPermissionsInput) {
    return trackerWrite(this.knex, this.changes, async (trx) => {
      const field = await this.access.field(rawFieldId, trx);
      const seen = new Map<number, { users: string[]; groups: string[] }>();
      for (const entry of body) {
        const ctx = await this.contextInBody(trx, field, entry.contextId);
        if (seen.has(ctx.id)) throw validationError([{ name: 'contextId', message: `The context ${ctx.id} is listed twice.`, value: entry.contextId }]);
        const users = dedupe(entry.userlist ?? []);
        const groups = dedupe(entry.grouplist ?? []);
        await this.checkPrincipals(trx, users, groups, ` (context ${ctx.id})`);
        seen.set(ctx.id, { users, groups });
      }
      const before = await this.contextRecords(field, new Set(), trx);
      await grantsRepository.clear(trx, field.id, 'contexts');
      for (const [contextId, { users, groups }] of seen) await grantsRepository.add(trx, field.id, contextId, principals(users, groups));
      const after = await this.contextRecords(field, new Set(), trx);
      await this.eventLog.record(trx, { actor, kind: 'grants.replaced', fieldId: field.id, target: { type: 'grants', scope: 'contexts' }, before, after });
      return after;
    });
  }

  /** A context named in a body must be one of the field's contexts; otherwise 400 naming contextId. */
  private async contextInBody(q: Knex, field: FieldRef, raw: number | string): Promise<ContextRef> {
    try {
      return await this.access.context(field, String(raw), q);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      throw validationError([{ name: 'contextId', message: `The context ${String(raw)} does not belong to this custom field.`, value: raw }]);
    }
  }
}

const principals = (users: readonly string[], groups: readonly string[]): Principal[] => [
  ...users.map((name) => ({ type: 'user' as const, name })),
  ...groups.map((name) => ({ type: 'group' as const, name })),
];
