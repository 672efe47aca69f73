import type { Knex } from 'knex';

/**
 * Issue 31: content ids become 64-bit. Cloud wiki exports carry content ids above 2^31, and an import keeps
 * the source's ids where they are free, so that `pageId=` links of the code-block downloads keep answering.
 * Every column holding a content id changes: the contents' own id (and its sequence), their parent and
 * container, and the tables that name a content. No other table stores a content id (the event log, the
 * webhooks and the tokens name fields, contexts, options and users only; migration_records keeps ids as text).
 * PostgreSQL keeps column and index comments through ALTER COLUMN … TYPE; foreign keys are checked again.
 */
const COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['contents', 'id'],
  ['contents', 'parent_id'],
  ['contents', 'container_id'],
  ['content_versions', 'content_id'],
  ['content_read_restrictions', 'content_id'],
  ['codeboxes', 'content_id'],
];

async function retype(knex: Knex, type: 'bigint' | 'integer'): Promise<void> {
  const seq = (await knex.raw(`select pg_get_serial_sequence('contents', 'id') as name`)) as { rows: { name: string }[] };
  const sequence = seq.rows[0]!.name;
  // The referencing columns first when narrowing, the referenced one first when widening: the foreign keys
  // then compare integer with bigint in between, which PostgreSQL allows.
  const order = type === 'bigint' ? COLUMNS : [...COLUMNS].reverse();
  for (const [table, column] of order) {
    await knex.raw(`alter table ?? alter column ?? type ${type}`, [table, column]);
  }
  // `sequence` comes from pg_get_serial_sequence, already quoted where it needs to be. Narrowing: the sequence
  // may stand above 2^31-1 although no such id is left (deleted content), so it continues after the highest id.
  if (type === 'integer') await knex.raw(`select setval(?, greatest((select max(id) from contents), 1))`, [sequence]);
  await knex.raw(`alter sequence ${sequence} as ${type}`);
}

export async function up(knex: Knex): Promise<void> {
  await retype(knex, 'bigint');
}

export async function down(knex: Knex): Promise<void> {
  const high = (await knex.raw(
    `select count(*)::int as n from contents where id > 2147483647 or parent_id > 2147483647 or container_id > 2147483647`,
  )) as { rows: { n: number }[] };
  if (high.rows[0]!.n > 0) {
    throw new Error(`Cannot go back to 32-bit content ids: ${high.rows[0]!.n} contents have ids above 2147483647; delete them first.`);
  }
  await retype(knex, 'integer');
}
