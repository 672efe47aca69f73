// Server processes pinned to cores, and the data the scale run writes to: users with a grant on a list each.
import pg from 'pg';
import { freePort, spawnProcess, waitForHttp, type RunningChild } from '../lib/child.ts';
import { basic, bearer, createContext, expectStatus } from '../lib/context.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, serverEnv } from '../lib/server-process.ts';
import type { BenchContext } from '../lib/types.ts';
import { pinned } from './wrk.ts';

export const FE = '/rest/trackercustomfieldeditorplugin/1';
const SELECT = 'com.atlassian.jira.plugin.system.customfieldtypes:select';

export interface Node extends RunningChild {
  core: number;
  ctx: BenchContext;
}

/** Every server started here and not yet exited, so that a signal can stop them all, half-started ones too. */
const live = new Set<RunningChild>();
let refusing = false;

/** After this, startNode refuses (a run being stopped starts nothing more); then stops every live server. */
export async function stopAllNodes(): Promise<void> {
  refusing = true;
  await Promise.all([...live].map((n) => n.stop()));
}

/**
 * `node <entry> serve` on `core`, with the bench servers' environment (lib/server-process.ts) and npm start's
 * heap flag; no --enable-source-maps, because the kit carries no maps. Resolves once /status answers.
 */
export async function startNode(entry: string, databaseUrl: string, core: number, name: string): Promise<Node> {
  const port = await freePort();
  const env = serverEnv(port, { kind: 'postgres', databaseUrl });
  const [cmd, args] = pinned(core, process.execPath, ['--max-semi-space-size=4', entry, 'serve']);
  if (refusing) throw new Error(`${name}: not started, the run is stopping`);
  const { child, running } = spawnProcess(name, cmd, args, { cwd: process.cwd(), env, port });
  live.add(running);
  child.once('exit', () => live.delete(running));
  await waitForHttp(child, running, '/status', 60_000);
  return { ...running, core, ctx: createContext(running.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD, databaseUrl) };
}

export interface Writer {
  user: string;
  /** Bearer header of the user's token: a write's time is the write's, not a password check's. */
  auth: string;
}

/** A user who is not an administrator, and a token of theirs. */
export async function makeWriter(ctx: BenchContext, user: string): Promise<Writer> {
  const password = `${user}-pw`;
  expectStatus(await ctx.http('POST', '/rest/api/2/user', { auth: ctx.adminAuth, body: { name: user, password } }), 201, `creating ${user}`);
  const token = await ctx.http('POST', '/rest/pat/latest/tokens', { auth: basic(user, password), body: { name: `${user}-token` } });
  expectStatus(token, 201, `a token for ${user}`);
  return { user, auth: bearer((token.body as { rawToken: string }).rawToken) };
}

export interface List {
  fieldId: number;
  contextId: number;
  /** The user endpoint of the list's options. */
  path: string;
}

/** A new select field whose default context the writer may edit (a grant naming the user). */
export async function grantedList(ctx: BenchContext, writer: Writer, label: string): Promise<List> {
  const field = await ctx.http('POST', '/rest/api/2/field', { auth: ctx.adminAuth, body: { name: `Scale ${label} ${Date.now()}`, type: SELECT } });
  expectStatus(field, 201, 'creating a field');
  const fieldId = Number((field.body as { schema: { customId: number } }).schema.customId);
  const contexts = await ctx.http('GET', `${FE}/admin/customfields/${fieldId}/contexts`, { auth: ctx.adminAuth });
  expectStatus(contexts, 200, 'reading its contexts');
  const contextId = (contexts.body as { contextId: number }[])[0]!.contextId;
  expectStatus(await ctx.http('PUT', `${FE}/admin/customfields/${fieldId}`, { auth: ctx.adminAuth, body: { userlist: [writer.user], grouplist: [] } }), 200, 'granting');
  return { fieldId, contextId, path: `${FE}/user/customfields/${fieldId}/contexts/${contextId}/options` };
}

/** `count` options in one statement, as scenarios/fieldeditor-options.ts seeds its 10,000; answers their ids. */
export async function seedOptions(databaseUrl: string, ctx: BenchContext, writer: Writer, list: List, count: number): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into field_options (field_id, context_id, parent_id, value, value_key, position, disabled)
       select $1::int, $2::int, null, v, lower(v), (i - 1)::bigint * 1048576, false
         from generate_series(1, $3::int) i, lateral (select 'Option ' || lpad(i::text, 5, '0') as v) x`,
      [list.fieldId, list.contextId, count],
    );
    // Raise the list version as every writer does, so that no cached list survives the seeding.
    await client.query(
      `insert into field_option_lists (context_id, parent_key, version) values ($1, 0, 1)
       on conflict (context_id, parent_key) do update set version = field_option_lists.version + 1`,
      [list.contextId],
    );
  } finally {
    await client.end();
  }
  const res = await ctx.http('GET', list.path, { auth: writer.auth });
  expectStatus(res, 200, 'listing the seeded options');
  return (res.body as { id: number }[]).map((o) => o.id);
}
