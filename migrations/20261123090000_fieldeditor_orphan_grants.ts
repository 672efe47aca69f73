import type { Knex } from 'knex';

/**
 * Grants are kept by name. Until now a deleted user's grants were removed by an event after the deletion had
 * committed (so a failure in between left them behind), and a deleted group's grants were never removed: a
 * later user or group of that name would have inherited them. Deletions now remove grants in their own
 * transaction; this removes the grants that earlier deletions left behind. Not reversible (nothing to restore).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`delete from field_grants g
    where (g.principal_type = 'user' and not exists (select 1 from users u where u.name_key = g.principal_key))
       or (g.principal_type = 'group' and not exists (select 1 from groups r where r.name_key = g.principal_key))`);
}

export async function down(): Promise<void> {
  // The removed grants belonged to nobody; there is nothing to put back.
}
