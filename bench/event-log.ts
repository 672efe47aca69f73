// The cost of the field editor's event log (issue 11), measured in one run on PostgreSQL:
//
// 1. Option create, rename and move against two server processes on one database, one writing the event log
//    (the default) and one not (ADDON_PAIR_BENCH_NO_EVENT_LOG=1, a knob for this benchmark only, no setting:
//    src/platform/test-knobs.ts),
//    the two called in turns (A B, B A, …) so the machine's drift hits both alike. Target: the median with
//    the log is at most 10 % above the median without it.
// 2. 100,000 event-log entries listed one page at a time (GET …/maintenance/event_log_entries, 1000 per
//    page, newest first). Target: every page under 50 ms.
//
//   npx tsx bench/event-log.ts [--iterations 200]
// Uses BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) to create and drop its database.
import path from 'node:path';
import pg from 'pg';
import { createThrowAwayDatabase, DEFAULT_BENCH_DATABASE_URL } from './lib/database.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startAppServer } from './lib/server-process.ts';
import type { RunningChild } from './lib/child.ts';
import { acquireRunLock } from './lib/run-lock.ts';
import { percentile } from './lib/latency.ts';
import { currentLoad, writeSideReport } from './lib/side-report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const FE = '/rest/trackercustomfieldeditorplugin/1';
const SELECT = 'com.atlassian.jira.plugin.system.customfieldtypes:select';
const OPTIONS = 10_000;
const ENTRIES = 100_000;
const PAGE = 1000;
const AUTH = `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString('base64')}`;
const iterations = Number(process.argv[process.argv.indexOf('--iterations') + 1] || 200) || 200;

async function call(
  server: RunningChild,
  method: string,
  p: string,
  body?: unknown,
): Promise<{ ms: number; json: unknown }> {
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}${p}`, {
    method,
    headers: { Authorization: AUTH, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json: unknown = text === '' ? null : JSON.parse(text);
  const ms = performance.now() - started;
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return { ms, json };
}

/** A select field with 10,000 options in its default context, granted to the admin; answers its options path and ids. */
async function seedField(
  server: RunningChild,
  databaseUrl: string,
  label: string,
): Promise<{ path: string; ids: number[] }> {
  const field = (
    await call(server, 'POST', '/rest/api/2/field', { name: `Bench event log ${label}`, type: SELECT })
  ).json as { schema: { customId: number } };
  const fieldId = field.schema.customId;
  const contexts = (await call(server, 'GET', `${FE}/admin/customfields/${fieldId}/contexts`)).json as {
    contextId: number;
  }[];
  const contextId = contexts[0]!.contextId;
  await call(server, 'PUT', `${FE}/admin/customfields/${fieldId}`, {
    userlist: [ADMIN_USERNAME],
    grouplist: [],
  });
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(
      `insert into field_options (field_id, context_id, parent_id, value, value_key, position, disabled)
       select $1::int, $2::int, null, v, lower(v), (i - 1)::bigint * 1048576, false
         from generate_series(1, $3::int) i, lateral (select 'Option ' || lpad(i::text, 5, '0') as v) x`,
      [fieldId, contextId, OPTIONS],
    );
    await c.query(
      `insert into field_option_lists (context_id, parent_key, version) values ($1, 0, 1)
                   on conflict (context_id, parent_key) do update set version = field_option_lists.version + 1`,
      [contextId],
    );
  } finally {
    await c.end();
  }
  const path = `${FE}/user/customfields/${fieldId}/contexts/${contextId}/options`;
  const ids = ((await call(server, 'GET', path)).json as { id: number }[]).map((o) => o.id);
  return { path, ids };
}

/** The option picked for iteration i (warm-up iterations are negative). */
const pick = (ids: number[], i: number, k: number) =>
  ids[(((i * k) % ids.length) + ids.length) % ids.length]!;
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

async function main(): Promise<void> {
  const release = await acquireRunLock();
  const loadAtStart = currentLoad();
  const db = await createThrowAwayDatabase(process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL);
  const servers: RunningChild[] = [];
  try {
    delete process.env.ADDON_PAIR_BENCH_NO_EVENT_LOG;
    const on = await startAppServer(ROOT, { kind: 'postgres', databaseUrl: db.url }, 'src/main.ts');
    servers.push(on);
    process.env.ADDON_PAIR_BENCH_NO_EVENT_LOG = '1';
    const off = await startAppServer(ROOT, { kind: 'postgres', databaseUrl: db.url }, 'src/main.ts');
    servers.push(off);
    delete process.env.ADDON_PAIR_BENCH_NO_EVENT_LOG;
    // One list per server, so neither waits for the other's list lock.
    const lists = { on: await seedField(on, db.url, 'on'), off: await seedField(off, db.url, 'off') };

    const ops: {
      name: string;
      run: (s: RunningChild, l: { path: string; ids: number[] }, i: number) => Promise<number>;
    }[] = [
      {
        name: 'option create',
        run: async (s, l, i) =>
          (await call(s, 'POST', l.path, { optionvalue: `Created ${i} ${Math.random()}` })).ms,
      },
      {
        name: 'option rename',
        run: async (s, l, i) =>
          (
            await call(s, 'PUT', `${l.path}/${pick(l.ids, i, 7919)}`, {
              optionvalue: `Renamed ${i} ${Math.random()}`,
            })
          ).ms,
      },
      {
        name: 'option move',
        run: async (s, l, i) =>
          (
            await call(
              s,
              'POST',
              `${l.path}/${pick(l.ids, i, 7919)}/move`,
              i % 10 === 0 ? { position: 'First' } : { after: String(pick(l.ids, i + 17, 104_729)) },
            )
          ).ms,
      },
    ];
    const lines: string[] = [
      '| operation | median with log (ms) | median without (ms) | overhead | target ≤ 10 % |',
      '| --- | --- | --- | --- | --- |',
    ];
    for (const op of ops) {
      for (let i = 0; i < 20; i++) {
        await op.run(on, lists.on, -i - 1);
        await op.run(off, lists.off, -i - 1);
      }
      const withLog: number[] = [];
      const without: number[] = [];
      for (let i = 0; i < iterations; i++) {
        // A B, B A, …: a drift of the machine's speed hits both sides alike.
        if (i % 2 === 0) {
          withLog.push(await op.run(on, lists.on, i));
          without.push(await op.run(off, lists.off, i));
        } else {
          without.push(await op.run(off, lists.off, i));
          withLog.push(await op.run(on, lists.on, i));
        }
      }
      const a = median(withLog);
      const b = median(without);
      const overhead = a / b - 1;
      lines.push(
        `| ${op.name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(overhead * 100).toFixed(1)} % | ${overhead <= 0.1 ? 'PASS' : 'FAIL'} |`,
      );
    }

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(
      `insert into event_log (created_at, actor, actor_key, kind, field_id, context_id, target, before, after)
       select now() - make_interval(secs => i), 'bench', 'bench', 'option.renamed', 10000, 10100,
              jsonb_build_object('type', 'option', 'id', i), jsonb_build_object('optionvalue', 'Before ' || i), jsonb_build_object('optionvalue', 'After ' || i)
         from generate_series(1, $1::int) i`,
      [ENTRIES],
    );
    // 100,000 rows in one transaction are not how the log grows: the first reader would pay for setting the
    // hint bits of all of them, and count(*) could not use an index-only scan. VACUUM is what autovacuum does
    // after such an insert (autovacuum_vacuum_insert_threshold), i.e. the steady state of a log that grew.
    await c.query('vacuum (analyze) event_log');
    await c.end();
    const pageMs: number[] = [];
    let total = 0;
    for (let startAt = 0; ; startAt += PAGE) {
      const { ms, json } = await call(
        on,
        'GET',
        `${FE}/maintenance/event_log_entries?startAt=${startAt}&maxResults=${PAGE}`,
      );
      const page = json as { total: number; values: unknown[] };
      total = page.total;
      if (page.values.length === 0) break;
      pageMs.push(ms);
    }
    const sorted = [...pageMs].sort((a, b) => a - b);
    const worst = sorted.at(-1)!;
    lines.push(
      '',
      `Event log: ${total.toLocaleString('en')} entries listed in ${pageMs.length} pages of ${PAGE}: median ${median(pageMs).toFixed(1)} ms, ` +
        `p99 ${percentile(sorted, 99).toFixed(1)} ms, worst ${worst.toFixed(1)} ms (target < 50 ms per page: ${worst < 50 ? 'PASS' : 'FAIL'})`,
      `Slowest pages (startAt: ms): ${pageMs
        .map((ms, i) => [i * PAGE, ms] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([at, ms]) => `${at}: ${ms.toFixed(1)}`)
        .join(', ')}; pages over 50 ms: ${pageMs.filter((ms) => ms >= 50).length}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    const file = writeSideReport(
      'event-log',
      'Event log benchmark (issue 11)',
      `npx tsx bench/event-log.ts --iterations ${iterations}`,
      lines,
      loadAtStart,
    );
    process.stdout.write(`wrote ${path.relative(ROOT, file)}\n`);
  } finally {
    for (const s of servers) await s.stop();
    await db.drop();
    release();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
