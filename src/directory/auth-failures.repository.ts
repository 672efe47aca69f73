import type { Knex } from 'knex';

/**
 * Housekeeping of the failed-login counters: `auth_failures` (a name's failures from all addresses) and
 * `auth_address_failures` (a name's failures in a row and its lock, per client address), used by the field
 * editor's maintenance jobs and the administrator's unlock. A locked row is kept while its lock holds (for ever
 * with LOCKOUT_MINUTES=0, until an administrator resets it), so pruning never unlocks a name early.
 */
const deletedCount = (rows: unknown[]) => rows.length;

const COUNTERS = ['auth_failures', 'auth_address_failures'] as const;

/**
 * Removes counters that no longer matter: unlocked ones whose last failure is older than `retentionHours`,
 * and, when locks expire (`lockoutMinutes` > 0), locked ones whose lock and last failure are both that old.
 */
export async function pruneStaleFailures(q: Knex, opts: { retentionHours: number; lockoutMinutes: number }): Promise<number> {
  let n = 0;
  for (const table of COUNTERS) {
    const cutoff = q.raw('now() - make_interval(hours => ?)', [opts.retentionHours]);
    const b = q(table).where('last_failure_at', '<', cutoff);
    if (opts.lockoutMinutes > 0) {
      b.andWhere((w) => w.whereNull('locked_at').orWhere('locked_at', '<', q.raw('now() - make_interval(mins => ?)', [opts.lockoutMinutes])));
    } else {
      b.whereNull('locked_at');
    }
    n += deletedCount(await b.del().returning('name_key'));
  }
  return n;
}

/**
 * Forgets a name's failed logins and its locks from every address (an administrator's unlock); answers what was
 * forgotten, if anything: the name's failures from all addresses and whether any address was locked.
 */
export async function clearFailures(q: Knex, name: string): Promise<{ failures: number; locked: boolean } | undefined> {
  const key = name.toLowerCase();
  const perAddress = (await q('auth_address_failures').where({ name_key: key }).del().returning(['failures', 'locked_at'])) as { failures: number; locked_at: Date | null }[];
  const total = ((await q('auth_failures').where({ name_key: key }).del().returning(['failures'])) as { failures: number }[])[0];
  if (!total && perAddress.length === 0) return undefined;
  return {
    failures: total?.failures ?? perAddress.reduce((sum, r) => sum + r.failures, 0),
    locked: perAddress.some((r) => r.locked_at !== null),
  };
}

/** Removes unlocked counters of names that no user has (a data migration task). */
export async function pruneUnknownNames(q: Knex): Promise<number> {
  let n = 0;
  for (const table of COUNTERS) {
    const rows = await q(table)
      .whereNull('locked_at')
      .whereNotExists(q('users as u').select(q.raw('1')).whereRaw(`u.name_key = ${table}.name_key`))
      .del()
      .returning('name_key');
    n += deletedCount(rows);
  }
  return n;
}
