import { usersRepository as users } from './users.repository.ts';
import { groupsRepository as groups, BUILTIN_GROUPS } from './groups.repository.ts';
import { importPart } from '../platform/import/import-part.ts';
import { DIRECTORY_TOPIC } from '../platform/auth/auth-cache.ts';
import { importGroups, importUsers } from './directory-import.schema.ts';
import { importUnknownGroups } from './host-api.errors.ts';

const PROGRESS_EVERY = 100;

/** Groups, then users with their memberships. Passwords are hashed before any row is written. */
export const directoryImport = importPart({ groups: importGroups, users: importUsers }, [DIRECTORY_TOPIC], async (trx, doc, { progress, summary, hashPassword }) => {
  const g = (summary.groups = { created: 0, skipped: 0 });
  for (const { name } of doc.groups ?? []) {
    if (await groups.findByName(trx, name)) g.skipped++;
    else {
      await groups.insert(trx, name);
      g.created++;
    }
  }

  const list = doc.users ?? [];
  const u = (summary.users = { created: 0, skipped: 0 });
  for (let i = 0; i < list.length; i++) {
    const item = list[i]!;
    if ((i + 1) % PROGRESS_EVERY === 0 || i + 1 === list.length) progress(`users: ${i + 1}/${list.length}`);
    if (await users.findByName(trx, item.name)) {
      u.skipped++;
      continue;
    }
    const row = await users.insert(trx, {
      name: item.name,
      displayName: item.displayName || item.name,
      email: item.emailAddress ?? '',
      passwordHash: await hashPassword(item.password),
    });
    if (item.active === false) await users.deactivate(trx, row.id);
    const wanted = [BUILTIN_GROUPS.users, ...(item.groups ?? [])];
    const found = await groups.findByNames(trx, wanted);
    const missing = wanted.filter((n) => !found.some((f) => f.name.toLowerCase() === n.toLowerCase()));
    if (missing.length > 0) throw importUnknownGroups(item.name, missing);
    for (const grp of found) await groups.addMember(trx, grp.id, row.id);
    u.created++;
  }
});
