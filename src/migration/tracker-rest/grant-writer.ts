// The field editor's grants of a source field, global and per context, with the users and groups they name.
// A user missing here is created from the source's record without a usable password (the report lists it, an
// administrator sets one); a group missing here is created, and its members as the source lists them join it,
// but for this host's built-in role groups, which take no members from an import. A grant that exists is left
// alone; grants here that the source does not have are kept and counted.
import type { Knex } from 'knex';
import { directoryImportPort as directory } from '../../directory/directory-import-port.ts';
import { grantsImportPort as grants, type Principal } from '../../fieldeditor/grants/grants-import-port.ts';
import type { SourcePrincipals, SourceTrackerField } from './tracker-model.ts';
import type { WrittenField } from './field-writer.ts';
import type { UnitTally } from './unit-tally.ts';
import { BUILTIN_MEMBERSHIPS_SKIPPED, NO_USABLE_PASSWORD } from '../imported-people.ts';

export async function writeGrants(
  trx: Knex.Transaction,
  src: SourceTrackerField,
  principals: SourcePrincipals,
  field: WrittenField,
  tally: UnitTally,
): Promise<void> {
  const ensureUser = async (name: string): Promise<number | undefined> => {
    const found = await directory.findUserId(trx, name);
    if (found !== undefined) return found;
    const u = principals.users.get(name);
    if (!u) return undefined;
    const id = await directory.createUser(trx, {
      name: u.name,
      displayName: u.displayName ?? u.name,
      email: u.email ?? '',
      active: u.active !== false,
      passwordHash: NO_USABLE_PASSWORD,
    });
    tally.add('users', 'created');
    tally.usersCreated.push(u.name);
    return id;
  };

  for (const [name, group] of principals.groups) {
    let row = await directory.findGroup(trx, name);
    if (!row) {
      row = await directory.createGroup(trx, name);
      tally.add('groups', 'created');
    } else tally.add('groups', 'unchanged');
    if (row.builtin) {
      tally.skip(BUILTIN_MEMBERSHIPS_SKIPPED, group?.members.length ?? 0);
      continue;
    }
    for (const member of group?.members ?? []) {
      const userId = await ensureUser(member);
      if (userId === undefined) tally.skip('group members the source does not know');
      else tally.add('memberships', (await directory.addMember(trx, row.id, userId)) ? 'created' : 'unchanged');
    }
  }

  const wanted = new Set<string>();
  for (const g of src.grants) {
    const contextId = g.contextId === null ? null : field.contexts.get(g.contextId);
    if (contextId === undefined) {
      tally.skip('grants on a context the source did not list');
      continue;
    }
    if (g.type === 'user' && (await ensureUser(g.name)) === undefined) {
      tally.skip('grants of users the source does not know');
      continue;
    }
    const p: Principal = { type: g.type, name: g.name };
    wanted.add(grantKey(contextId, p));
    if (await grants.hasGrant(trx, field.id, contextId, p)) tally.add('grants', 'unchanged');
    else {
      await grants.addGrant(trx, field.id, contextId, p);
      tally.add('grants', 'created');
    }
  }
  const here = await grants.grantsOf(trx, field.id);
  const extra = here.filter((g) => !wanted.has(grantKey(g.context_id, { type: g.principal_type, name: g.principal_name })));
  tally.skip('grants here that the source does not have (kept)', extra.length);
}

const grantKey = (contextId: number | null, p: Principal) => `${contextId ?? 'global'}|${p.type}|${p.name.toLowerCase()}`;
