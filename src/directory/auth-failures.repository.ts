import type { Knex } from 'knex';

/**
 * Housekeeping of `auth_failures` (the failed-login counters), used by the field editor's maintenance jobs.
 * A locked row is kept while its lock holds (for ever with LOCKOUT_MINUTES=0, until an administrator resets
 * it), so pruning never unlocks a name early.
 */
const deletedCount = (rows: unknown[]) => rows.length;

/**
 * Removes counters that no longer matter: unlocked ones whose last failure is older than `retentionHours`,
 * and, when locks expire (`lockoutMinutes` > 0), locked ones whose lock and last failure are both that old.
 */
export async function pruneStaleFailures(q: Knex, opts: { retentionHours: number; lockoutMinutes: number }): Promise<number> {
  const cutoff = q.raw('now() - make_interval(hours => ?)', [opts.retentionHours]);
  const b = q('auth_failures').where('last_failure_at', '<', cutoff);
  if (opts.lockoutMinutes > 0) {
    b.andWhere((w) => w.whereNull('locked_at').orWhere('locked_at', '<', q.raw('now() - make_interval(mins => ?)', [opts.lockoutMinutes])));
  } else {
    b.whereNull('locked_at');
  }
  return deletedCount(await b.del().returning('name_key'));
}

/** Forgets a name's failed logins and its lock (an administrator's unlock); answers what was forgotten, if anything. */
export async function clearFailures(q: Knex, name: string): Promise<{ failures: number; locked_at: Date | null } | undefined> {
  const rows = await q('auth_failures').where({ name_key: name.toLowerCase() }).del().returning(['failures', 'locked_at']);
  return (rows as { failures: number; locked_at: Date | null }[])[0];
}

/** Removes unlocked counters of names that no user has (a data migration task). */
export async function pruneUnknownNames(q: Knex): Promise<number> {
  const rows = await q('auth_failures')
    .whereNull('locked_at')
    .whereNotExists(q('users as u').select(q.raw('1')).whereRaw('u.name_key = auth_failures.name_key'))
    .del()
    .returning('name_key');
  return deletedCount(rows);
}
