import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { describeContexts } from '../../tracker/contexts.service.ts';
import { fieldsRepository } from '../../tracker/fields.repository.ts';
import { toContextRef, toFieldRef } from '../../tracker/refs.ts';
import { allFields, pageOfFields } from './field-list.repository.ts';
import type { GrantsService } from '../grants/grants.service.ts';
import type { PageRequest } from './fields.schemas.ts';
import { contextRecord, fieldRecord, permissionRecord } from '../shared/fieldeditor.presenters.ts';

/**
 * A1 and U1. The paginated forms cost a fixed number of queries whatever the page size: count, page,
 * the page's grants (asked of the grants room), and (when some grant names a context) those contexts and their scope.
 */
export async function adminFieldPage(q: Knex, page: PageRequest, grantsOf: Pick<GrantsService, 'ofFields'>) {
  const started = performance.now();
  const { total, rows } = await pageOfFields(q, page);
  const grants = await grantsOf.ofFields(rows.map((r) => r.id));
  const contextIds = [...new Set(grants.map((g) => g.context_id).filter((id): id is number => id !== null))];
  const contexts = await describeContexts(q, (await fieldsRepository.contextsByIds(q, contextIds)).map(toContextRef));
  const values = rows.map((row) => {
    const mine = grants.filter((g) => g.field_id === row.id);
    return {
      ...fieldRecord(toFieldRef(row)),
      globalPermission: permissionRecord(mine.filter((g) => g.context_id === null)),
      // Only contexts that carry a grant are listed (default context first, then by id).
      contextPermissions: contexts
        .filter((c) => c.fieldId === row.id)
        .map((c) => ({ context: contextRecord(c), ...permissionRecord(mine.filter((g) => g.context_id === c.id)) }))
        .filter((p) => p.userlist.length + p.grouplist.length > 0),
    };
  });
  return wrap(page, total, values, started);
}

export async function userFieldPage(q: Knex, page: PageRequest, user: AuthUser) {
  const started = performance.now();
  const { total, rows } = await pageOfFields(q, page, user);
  return wrap(page, total, rows.map((r) => fieldRecord(toFieldRef(r))), started);
}

/** The deprecated plain arrays: all fields (A1), or all the user may edit (U1). */
export async function legacyFieldList(q: Knex, user?: AuthUser) {
  return (await allFields(q, user)).map((r) => fieldRecord(toFieldRef(r)));
}

function wrap<T>(page: PageRequest, total: number, values: T[], started: number) {
  return {
    maxResults: page.maxResults,
    startAt: page.startAt,
    total,
    processingTimeInMs: Math.round(performance.now() - started),
    values,
  };
}
