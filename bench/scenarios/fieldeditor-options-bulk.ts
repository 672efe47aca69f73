// Option lists in bulk (issue 27): 1,000 creations as one batch against 1,000 single creations (the batch at
// least 20x faster, under 1 s median), and the sync of a 10,000-option file with half of it changed (under 10 s
// on PostgreSQL) against the same 5,000 renames as single requests. Each side does the same work in the same
// run, so the ratio holds on a drifting machine as well as the run allows (the single side is one long call).
import { expectStatus } from '../lib/context.ts';
import type { BenchContext, LatencyScenario, Scenario } from '../lib/types.ts';

const FE = '/rest/trackercustomfieldeditorplugin/1';
const SELECT = 'com.atlassian.jira.plugin.system.customfieldtypes:select';
const CASCADING = 'com.atlassian.jira.plugin.system.customfieldtypes:cascadingselect';
const BATCH = 1000;
const SYNCED = 10_000;
const BATCH_ITERATIONS = 10;
const BATCH_WARMUP = 2;
const SINGLE_ITERATIONS = 2;

/** A field with a grant for the admin; answers the path of its default context's options. */
async function field(ctx: BenchContext, type: string, name: string): Promise<string> {
  const res = await ctx.http('POST', '/rest/api/2/field', { auth: ctx.adminAuth, body: { name: `${name} ${Date.now()}`, type } });
  expectStatus(res, 201, `creating ${name}`);
  const fieldId = Number((res.body as { schema: { customId: number } }).schema.customId);
  expectStatus(await ctx.http('PUT', `${FE}/admin/customfields/${fieldId}`, { auth: ctx.adminAuth, body: { userlist: [ctx.adminUsername], grouplist: [] } }), 200, 'granting the admin');
  return `${FE}/user/customfields/${fieldId}/contexts/default/options`;
}

/** A cascading select with one parent per call of both creation scenarios: each call fills an empty child list. */
async function parents(ctx: BenchContext): Promise<{ path: string; ids: number[]; next: { batch: number; single: number } }> {
  const cached = ctx.state.bulkParents as { path: string; ids: number[]; next: { batch: number; single: number } } | undefined;
  if (cached) return cached;
  const path = await field(ctx, CASCADING, 'Bench Bulk');
  const count = BATCH_ITERATIONS + BATCH_WARMUP + SINGLE_ITERATIONS + 2;
  const res = await ctx.http('POST', `${path}/batch`, { auth: ctx.adminAuth, body: { create: Array.from({ length: count }, (_, i) => ({ optionvalue: `Parent ${i}` })) } });
  expectStatus(res, 200, 'creating the parents');
  const ids = (res.body as { options: { id: number }[] }).options.map((o) => o.id);
  const made = { path, ids, next: { batch: 0, single: BATCH_ITERATIONS + BATCH_WARMUP } };
  ctx.state.bulkParents = made;
  return made;
}

interface SyncSeed {
  path: string;
  names: string[];
}

/** A single select with 10,000 options, made with ten batches. */
async function syncSeed(ctx: BenchContext): Promise<SyncSeed> {
  const cached = ctx.state.bulkSync as SyncSeed | undefined;
  if (cached) return cached;
  const path = await field(ctx, SELECT, 'Bench Sync');
  const names = Array.from({ length: SYNCED }, (_, i) => `Item ${String(i).padStart(5, '0')}`);
  for (let i = 0; i < SYNCED; i += BATCH) {
    const create = names.slice(i, i + BATCH).map((optionvalue) => ({ optionvalue }));
    expectStatus(await ctx.http('POST', `${path}/batch`, { auth: ctx.adminAuth, body: { create } }), 200, 'seeding the synced list');
  }
  const seeded = { path, names };
  ctx.state.bulkSync = seeded;
  return seeded;
}

/** The list's JSON export with every other option renamed (`round` keeps the names of each call new). */
async function halfChanged(ctx: BenchContext, s: SyncSeed, round: number): Promise<{ body: string; etag: string; renames: { id: number; value: string }[] }> {
  const res = await ctx.http('GET', `${s.path}/export?format=json`, { auth: ctx.adminAuth });
  expectStatus(res, 200, 'exporting');
  const tree = res.body as { options: { id: number; optionvalue: string }[] };
  const renames: { id: number; value: string }[] = [];
  tree.options.forEach((o, i) => {
    if (i % 2 === 0) {
      o.optionvalue = `${s.names[i]} r${round}`;
      renames.push({ id: o.id, value: o.optionvalue });
    }
  });
  return { body: JSON.stringify(tree), etag: res.headers.get('etag') ?? '', renames };
}

export const scenarios: Scenario[] = [
  {
    kind: 'latency',
    name: 'fieldeditor-options-create-1000-single',
    description: `${BATCH} POSTs of one option each, one after another, into an empty child list`,
    iterations: SINGLE_ITERATIONS,
    warmupIterations: 0,
    setup: async (ctx) => void (await parents(ctx)),
    async call(ctx) {
      const p = await parents(ctx);
      const parent = p.ids[p.next.single++]!;
      for (let i = 0; i < BATCH; i++) {
        expectStatus(await ctx.http('POST', `${p.path}/${parent}/childoptions`, { auth: ctx.adminAuth, body: { optionvalue: `Child ${i}` } }), 200, 'creating one option');
      }
    },
    targets: [],
  },
  {
    kind: 'latency',
    name: 'fieldeditor-options-create-1000-batch',
    description: `one POST …/batch creating ${BATCH} options in an empty child list`,
    iterations: BATCH_ITERATIONS,
    warmupIterations: BATCH_WARMUP,
    setup: async (ctx) => void (await parents(ctx)),
    async call(ctx) {
      const p = await parents(ctx);
      const parent = p.ids[p.next.batch++]!;
      const create = Array.from({ length: BATCH }, (_, i) => ({ optionvalue: `Child ${i}` }));
      expectStatus(await ctx.http('POST', `${p.path}/${parent}/childoptions/batch`, { auth: ctx.adminAuth, body: { create } }), 200, 'the batch');
    },
    targets: [{ maxMedianMs: 1000 }, { fasterThan: 'fieldeditor-options-create-1000-single', min: 20 }],
  },
  {
    kind: 'latency',
    name: 'fieldeditor-options-sync-10k-half-single',
    description: `the ${SYNCED / 2} renames of the sync below as single PUTs, one after another`,
    iterations: 1,
    warmupIterations: 0,
    setup: async (ctx) => void (await syncSeed(ctx)),
    async call(ctx, i) {
      const s = await syncSeed(ctx);
      const { renames } = await halfChanged(ctx, s, 1000 + i);
      for (const r of renames) {
        expectStatus(await ctx.http('PUT', `${s.path}/${r.id}`, { auth: ctx.adminAuth, body: { optionvalue: r.value } }), 200, 'renaming one option');
      }
    },
    targets: [],
  },
  {
    kind: 'latency',
    name: 'fieldeditor-options-sync-10k-half',
    description: `export the ${SYNCED.toLocaleString('en')}-option list, rename every other option in the file, apply it with POST …/sync?dryRun=false under the export's ETag`,
    iterations: 5,
    warmupIterations: 1,
    setup: async (ctx) => void (await syncSeed(ctx)),
    async call(ctx, i) {
      const s = await syncSeed(ctx);
      const file = await halfChanged(ctx, s, i + 10);
      const res = await ctx.http('POST', `${s.path}/sync?dryRun=false`, { auth: ctx.adminAuth, body: file.body, headers: { 'content-type': 'application/json', 'if-match': file.etag } });
      expectStatus(res, 200, 'the sync');
      const renamed = (res.body as { rename: unknown[] }).rename.length;
      if (renamed !== SYNCED / 2) throw new Error(`the sync renamed ${renamed} options, expected ${SYNCED / 2}`);
    },
    targets: [{ maxMedianMs: 10_000 }, { fasterThan: 'fieldeditor-options-sync-10k-half-single', min: 20 }],
  },
];

// ---- Issue 27, point 5: single writes against the database's floor ----

const WRITERS = 4;
const PER_WRITER = 100;

/** One field for the API's creates and one for the floor's rows, each with its default context's id. */
async function floorFields(ctx: BenchContext): Promise<{ apiPath: string; floorField: number; floorContext: number }> {
  const cached = ctx.state.bulkFloor as { apiPath: string; floorField: number; floorContext: number } | undefined;
  if (cached) return cached;
  const apiPath = await field(ctx, SELECT, 'Bench Writers');
  const res = await ctx.http('POST', '/rest/api/2/field', { auth: ctx.adminAuth, body: { name: `Bench Floor ${Date.now()}`, type: SELECT } });
  expectStatus(res, 201, 'creating the floor field');
  const floorField = Number((res.body as { schema: { customId: number } }).schema.customId);
  const contexts = await ctx.http('GET', `${FE}/admin/customfields/${floorField}/contexts`, { auth: ctx.adminAuth });
  expectStatus(contexts, 200, 'reading its contexts');
  const made = { apiPath, floorField, floorContext: (contexts.body as { contextId: number }[])[0]!.contextId };
  ctx.state.bulkFloor = made;
  return made;
}

let floorRound = 0;

/** A list of WRITERS × PER_WRITER options (one batch) for the rename and move scenarios; writer w owns ids[w]. */
async function writerOptions(ctx: BenchContext): Promise<{ path: string; ids: number[][] }> {
  const cached = ctx.state.bulkWriterOptions as { path: string; ids: number[][] } | undefined;
  if (cached) return cached;
  const path = await field(ctx, SELECT, 'Bench Renames');
  const create = Array.from({ length: WRITERS * PER_WRITER }, (_, i) => ({ optionvalue: `Option ${i}` }));
  const res = await ctx.http('POST', `${path}/batch`, { auth: ctx.adminAuth, body: { create } });
  expectStatus(res, 200, 'creating the options to rename and move');
  const all = (res.body as { options: { id: number }[] }).options.map((o) => o.id);
  const made = { path, ids: Array.from({ length: WRITERS }, (_, w) => all.slice(w * PER_WRITER, (w + 1) * PER_WRITER)) };
  ctx.state.bulkWriterOptions = made;
  return made;
}

/** WRITERS clients at once, each sending PER_WRITER requests that `request` makes for its own options. */
async function eachWriterOwnOptions(ctx: BenchContext, request: (path: string, own: number[], w: number, i: number) => { method: 'PUT' | 'POST'; path: string; body: unknown }, what: string): Promise<void> {
  const o = await writerOptions(ctx);
  await Promise.all(
    o.ids.map(async (own, w) => {
      for (let i = 0; i < PER_WRITER; i++) {
        const r = request(o.path, own, w, i);
        expectStatus(await ctx.http(r.method, r.path, { auth: ctx.adminAuth, body: r.body }), 200, what);
      }
    }),
  );
}

/** The floor of issue 27, point 5: the single-write scenarios below run in turns with it. */
const floorScenario: LatencyScenario = {
  kind: 'latency',
  name: 'fieldeditor-options-floor-4-writers',
  description: `the floor: ${WRITERS} node-postgres clients at once, each ${PER_WRITER} transactions that take the list's lock row (upsert) and insert one option row`,
  postgresOnly: 'the floor is measured with node-postgres on the bench database',
  iterations: 5,
  warmupIterations: 1,
  setup: async (ctx) => void (await floorFields(ctx)),
  async call(ctx) {
    const f = await floorFields(ctx);
    const pg = (await import('pg')).default;
    const round = floorRound++;
    const clients = await Promise.all(Array.from({ length: WRITERS }, async () => {
      const c = new pg.Client({ connectionString: ctx.databaseUrl });
      await c.connect();
      return c;
    }));
    try {
      await Promise.all(clients.map(async (c, w) => {
        for (let i = 0; i < PER_WRITER; i++) {
          await c.query('begin');
          await c.query(
            `insert into field_option_lists (context_id, parent_key, version) values ($1, 0, 1)
             on conflict (context_id, parent_key) do update set version = field_option_lists.version + 1`,
            [f.floorContext],
          );
          const value = `Floor ${round} ${w} ${i}`;
          await c.query(
            `insert into field_options (field_id, context_id, parent_id, value, value_key, position, disabled) values ($1, $2, null, $3::text, lower($3::text), $4, false)`,
            [f.floorField, f.floorContext, value, ((round * WRITERS + w) * PER_WRITER + i) * 1048576],
          );
          await c.query('commit');
        }
      }));
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  },
  targets: [],
};

scenarios.push(
  floorScenario,
  {
    kind: 'latency',
    name: 'fieldeditor-options-create-4-writers',
    description: `${WRITERS} clients at once, each ${PER_WRITER} POSTs of one option into the same list (the floor's work through the API)`,
    postgresOnly: 'compared with the floor, which needs PostgreSQL',
    iterations: 5,
    warmupIterations: 1,
    setup: async (ctx) => void (await floorFields(ctx)),
    async call(ctx, iteration) {
      const f = await floorFields(ctx);
      await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < PER_WRITER; i++) {
          expectStatus(await ctx.http('POST', f.apiPath, { auth: ctx.adminAuth, body: { optionvalue: `Writer ${iteration} ${w} ${i}` } }), 200, 'creating an option');
        }
      }));
    },
    // Issue 27, point 5: at least half the floor's throughput (the same number of writes in at most twice its
    // time), call for call in turns with the floor.
    inTurnsWith: floorScenario,
    targets: [{ minRatioToPaired: 0.5 }],
  },
  {
    kind: 'latency',
    name: 'fieldeditor-options-rename-4-writers',
    description: `${WRITERS} clients at once, each ${PER_WRITER} PUTs renaming one of its own options in a list of ${WRITERS * PER_WRITER}`,
    postgresOnly: 'compared with the floor, which needs PostgreSQL',
    iterations: 5,
    warmupIterations: 1,
    setup: async (ctx) => void (await writerOptions(ctx)),
    call: (ctx, iteration) =>
      eachWriterOwnOptions(ctx, (path, own, w, i) => ({ method: 'PUT', path: `${path}/${own[i]}`, body: { optionvalue: `Renamed ${iteration} ${w} ${i}` } }), 'renaming an option'),
    inTurnsWith: floorScenario,
    targets: [{ minRatioToPaired: 0.5 }],
  },
  {
    kind: 'latency',
    name: 'fieldeditor-options-move-4-writers',
    description: `${WRITERS} clients at once, each ${PER_WRITER} POSTs moving one of its own options (after another of them, every tenth to the top) in a list of ${WRITERS * PER_WRITER}`,
    postgresOnly: 'compared with the floor, which needs PostgreSQL',
    iterations: 5,
    warmupIterations: 1,
    setup: async (ctx) => void (await writerOptions(ctx)),
    call: (ctx, iteration) =>
      eachWriterOwnOptions(
        ctx,
        (path, own, _w, i) => {
          // After another option of the same writer, picked across its options (never itself).
          const picked = (i * 37 + iteration + 1) % PER_WRITER;
          const after = own[picked === i ? (i + 1) % PER_WRITER : picked];
          return { method: 'POST', path: `${path}/${own[i]}/move`, body: i % 10 === 0 ? { position: 'First' } : { after: String(after) } };
        },
        'moving an option',
      ),
    inTurnsWith: floorScenario,
    targets: [{ minRatioToPaired: 0.5 }],
  },
);
