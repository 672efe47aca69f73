import type { Knex } from 'knex';

/**
 * A fingerprint of every application table: its row count and an md5 over its rows in a fixed order. Two
 * equal fingerprints mean no request wrote anything (auth_failures is left out when asked, and with it the
 * per-address counters auth_address_failures: failed logins are counted on purpose; `last_used_at` of tokens is left out as a use, not a change).
 */
export async function dataFingerprint(knex: Knex, opts: { ignore?: string[] } = {}): Promise<Record<string, string>> {
  const tables = (await knex.raw(
    `select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'knex_%'
      order by table_name`,
  )) as { rows: { table_name: string }[] };
  const ignore = new Set(opts.ignore ?? []);
  if (ignore.has('auth_failures')) ignore.add('auth_address_failures');
  const out: Record<string, string> = {};
  for (const { table_name: name } of tables.rows) {
    if (ignore.has(name)) continue;
    const row = (await knex.raw(
      name === 'access_tokens'
        ? `select count(*)::text as n, coalesce(md5(string_agg((t.id, t.name, t.scope, t.expires_at)::text, ',' order by t.id)), '') as h from access_tokens t`
        : `select count(*)::text as n, coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as h from ?? t`,
      name === 'access_tokens' ? [] : [name],
    )) as { rows: { n: string; h: string }[] };
    out[name] = `${row.rows[0]!.n}:${row.rows[0]!.h}`;
  }
  return out;
}
