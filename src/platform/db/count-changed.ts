import type { Knex } from 'knex';

/**
 * Runs a data-changing statement (an insert, update or delete without a `returning` of its own) and answers how
 * many rows it changed: the repairs of the maintenance jobs report their counts this way.
 */
export async function countChanged(trx: Knex.Transaction, sql: string, bindings: readonly unknown[] = []): Promise<number> {
  const { rows } = await trx.raw<{ rows: { n: number }[] }>(`with changed as (${sql} returning 1) select count(*)::int as n from changed`, bindings as never);
  return Number(rows[0]?.n ?? 0);
}
