// Field editor, admin and user field lists at scale: 20,000 custom fields, grants on 2,000 of them.
// A1 pages of 50 with a filter, and U1 for a user holding 500 grants through groups, must each reach
// 0.3x the empty-Express baseline: both are set-based (count + one page + one batched grants query).
import pg from 'pg';
import { bearer, expectStatus } from '../lib/context.ts';
import type { BenchContext, Scenario } from '../lib/types.ts';

const FIELDS = 20_000;
const GRANTED_FIELDS = 2_000;
const USER = 'bench-fe-user';
const USER_PW = 'bench-fe-user-pw';
const USER_GROUPS = ['bench-fe-g1', 'bench-fe-g2', 'bench-fe-g3', 'bench-fe-g4', 'bench-fe-g5']; // 100 field grants each
const OTHER_GROUP = 'bench-fe-others'; // the remaining 1,500 granted fields
/** Why these scenarios run on PostgreSQL only (`postgresOnly`): 20,000 fields through the API would take minutes. */
const SEEDS_WITH_SQL = `their setup seeds ${FIELDS.toLocaleString('en')} fields with SQL`;
const FE = '/rest/trackercustomfieldeditorplugin/1';
const SELECT = 'com.atlassian.jira.plugin.system.customfieldtypes:select';

async function createToken(ctx: BenchContext, auth: string, name: string): Promise<string> {
  const res = await ctx.http('POST', '/rest/pat/latest/tokens', { auth, body: { name } });
  expectStatus(res, 201, `creating token ${name}`);
  return bearer((res.body as { rawToken: string }).rawToken);
}

/**
 * Seeds with a handful of set-based statements (generate_series), not 20,000 HTTP calls. Users and groups
 * go through the REST API so that the directory's rules (name keys, memberships) apply.
 */
async function seed(ctx: BenchContext): Promise<void> {
  if (ctx.state.fieldeditorSeeded) return;
  if (!ctx.databaseUrl) throw new Error(`fieldeditor-admin scenarios need PostgreSQL: ${SEEDS_WITH_SQL}`);
  const admin = ctx.adminAuth;
  const user = await ctx.http('POST', '/rest/api/2/user', { auth: admin, body: { name: USER, password: USER_PW } });
  expectStatus(user, 201, 'creating the bench field-editor user');
  for (const g of [...USER_GROUPS, OTHER_GROUP]) {
    expectStatus(await ctx.http('POST', '/rest/api/2/group', { auth: admin, body: { name: g } }), 201, `creating group ${g}`);
  }
  for (const g of USER_GROUPS) {
    expectStatus(await ctx.http('POST', `/rest/api/2/group/user?groupname=${g}`, { auth: admin, body: { name: USER } }), 201, `joining ${g}`);
  }
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ first: number }>(
      `with ins as (
         insert into custom_fields (name, name_key, description, type_key)
         select 'Bench Field ' || lpad(i::text, 5, '0'), 'bench field ' || lpad(i::text, 5, '0'), '', $1
         from generate_series(1, $2::int) i returning id)
       select min(id) as first from ins`,
      [SELECT, FIELDS],
    );
    const first = Number(rows[0]?.first);
    await client.query(
      `insert into field_contexts (field_id, name, description, is_default)
       select id, 'Default Configuration Scheme for ' || name, '', true from custom_fields where id >= $1`,
      [first],
    );
    // Fields first .. first+499 go to the user's five groups (100 each); the next 1,500 to another group.
    await client.query(
      `insert into field_grants (field_id, context_id, principal_type, principal_name, principal_key)
       select $1::int + i, null, 'group', g, g
       from generate_series(0, $2::int - 1) i,
            lateral (select case when i < 500 then 'bench-fe-g' || (i / 100 + 1)::text else $3 end as g) x`,
      [first, GRANTED_FIELDS, OTHER_GROUP],
    );
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    await client.end();
  }
  ctx.state.fieldeditorAdminAuth = await createToken(ctx, admin, 'bench-fe-admin');
  ctx.state.fieldeditorUserAuth = await createToken(ctx, `Basic ${Buffer.from(`${USER}:${USER_PW}`).toString('base64')}`, 'bench-fe-user');
  ctx.state.fieldeditorSeeded = true;
}

export const scenarios: Scenario[] = [
  {
    name: 'fieldeditor-a1-page-filter',
    description: `GET ${FE}/admin/customfields?filter=field 1&startAt=100&maxResults=50 over ${FIELDS} fields, ${GRANTED_FIELDS} with grants`,
    setup: seed,
    postgresOnly: SEEDS_WITH_SQL,
    request: (ctx) => ({
      method: 'GET',
      path: `${FE}/admin/customfields?filter=field%201&startAt=100&maxResults=50&orderBy=%2Bname`,
      headers: { authorization: String(ctx.state.fieldeditorAdminAuth) },
    }),
    expectStatus: 200,
    targets: [{ minRatioToExpress: 0.3 }, { maxRssMb: 300 }],
  },
  {
    name: 'fieldeditor-u1-page-500-group-grants',
    description: `GET ${FE}/user/customfields?maxResults=50&startAt=200 for a user with 500 field grants through 5 groups`,
    setup: seed,
    postgresOnly: SEEDS_WITH_SQL,
    request: (ctx) => ({
      method: 'GET',
      path: `${FE}/user/customfields?maxResults=50&startAt=200`,
      headers: { authorization: String(ctx.state.fieldeditorUserAuth) },
    }),
    expectStatus: 200,
    targets: [{ minRatioToExpress: 0.3 }, { maxRssMb: 300 }],
  },
];
