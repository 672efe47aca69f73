// Issue 40, "Bench, in turns with the build before this change": single-node option create, rename and move
// rates of this build (A) against the build before (B, another dist/main.mjs), on one PostgreSQL (a database
// each: the two builds' migrations differ), each server pinned to a core of its own. Per operation and client
// count, rounds alternate A B, B A, … so that a drift hits both alike; the figure is the median of the rounds'
// ratios A/B (target ≥ 0.9). The lists hold 10,000 options, as in scenarios/fieldeditor-options.ts.
import { createThrowAwayDatabase } from '../lib/database.ts';
import { grantedList, makeWriter, seedOptions, startNode, type List, type Node, type Writer } from './nodes.ts';
import { runWrk, type WrkResult } from './wrk.ts';

export interface AbOptions {
  afterEntry: string;
  beforeEntry: string;
  adminUrl: string;
  ops: Array<'create' | 'rename' | 'move'>;
  clients: number[];
  rounds: number;
  roundSec: number;
  warmupSec: number;
  cores: { servers: number[]; load: number[] };
  log: (line: string) => void;
}

export interface AbRow {
  op: string;
  clients: number;
  afterRps: number;
  beforeRps: number;
  /** Median of the rounds' ratios after/before. */
  ratio: number;
  roundRatios: number[];
  afterP99Ms: number;
  beforeP99Ms: number;
  failed: number;
}

interface Side {
  node: Node;
  writer: Writer;
  list: List;
  ids: number[];
}

const OPTIONS = 10_000;
export const AB_TARGET = 0.9;

async function side(entry: string, adminUrl: string, core: number, name: string, cleanups: Array<() => Promise<void>>): Promise<Side> {
  const db = await createThrowAwayDatabase(adminUrl);
  const node = await startNode(entry, db.url, core, name);
  cleanups.push(async () => {
    await node.stop();
    await db.drop();
  });
  const writer = await makeWriter(node.ctx, `ab-writer-${Date.now()}`);
  const list = await grantedList(node.ctx, writer, name);
  const ids = await seedOptions(db.url, node.ctx, writer, list, OPTIONS);
  return { node, writer, list, ids };
}

export async function measureAb(o: AbOptions, cleanups: Array<() => Promise<void>>): Promise<AbRow[]> {
  const [c0, c1] = [o.cores.servers[0]!, o.cores.servers[1 % o.cores.servers.length]!];
  const a = await side(o.afterEntry, o.adminUrl, c0, 'ab-after', cleanups);
  // A new database name comes from the clock: make sure the second one differs.
  await new Promise((r) => setTimeout(r, 5));
  const b = await side(o.beforeEntry, o.adminUrl, c1, 'ab-before', cleanups);
  const loadCore = o.cores.load[0]!;
  const run = (s: Side, op: AbOptions['ops'][number], clients: number, seconds: number, prefix: string) =>
    runWrk({ core: loadCore, baseUrl: s.node.baseUrl, auth: s.writer.auth, mode: op, path: s.list.path, connections: clients, seconds, prefix, ids: s.ids.slice(0, 2000) });
  const rows: AbRow[] = [];
  for (const op of o.ops) {
    for (const clients of o.clients) {
      await run(a, op, clients, o.warmupSec, `wa${op}${clients}`);
      await run(b, op, clients, o.warmupSec, `wb${op}${clients}`);
      const ra: WrkResult[] = [];
      const rb: WrkResult[] = [];
      for (let r = 0; r < o.rounds; r++) {
        const tag = `${op}${clients}r${r}`;
        if (r % 2 === 0) {
          ra.push(await run(a, op, clients, o.roundSec, `a${tag}`));
          rb.push(await run(b, op, clients, o.roundSec, `b${tag}`));
        } else {
          rb.push(await run(b, op, clients, o.roundSec, `b${tag}`));
          ra.push(await run(a, op, clients, o.roundSec, `a${tag}`));
        }
      }
      const roundRatios = ra.map((x, i) => x.rps / rb[i]!.rps);
      const sorted = [...roundRatios].sort((x, y) => x - y);
      const total = (xs: WrkResult[]) => xs.reduce((s, x) => s + x.requests, 0) / xs.reduce((s, x) => s + x.durationUs / 1e6, 0);
      const row: AbRow = {
        op,
        clients,
        afterRps: total(ra),
        beforeRps: total(rb),
        ratio: sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2,
        roundRatios,
        afterP99Ms: Math.max(...ra.map((x) => x.p99Us / 1000)),
        beforeP99Ms: Math.max(...rb.map((x) => x.p99Us / 1000)),
        failed: [...ra, ...rb].reduce((s, x) => s + x.socketErrors + x.non2xx + x.timeouts, 0),
      };
      rows.push(row);
      o.log(`  ${op}, ${clients} client(s): after ${row.afterRps.toFixed(0)}/s, before ${row.beforeRps.toFixed(0)}/s, median ratio ${row.ratio.toFixed(2)} (${row.failed} failed)`);
    }
  }
  return rows;
}

export function renderAb(rows: readonly AbRow[], o: Pick<AbOptions, 'rounds' | 'roundSec' | 'warmupSec' | 'cores'>, commits: { after: string; before: string }): string[] {
  return [
    `This build (${commits.after}) on core ${o.cores.servers[0]}, the build before (${commits.before}) on core ${o.cores.servers[1 % o.cores.servers.length]}, ` +
      `a database each on one PostgreSQL; wrk on core ${o.cores.load[0]}; lists of ${OPTIONS.toLocaleString('en')} options; ` +
      `${o.rounds} rounds of ${o.roundSec} s per side (A B, B A, …) after ${o.warmupSec} s warm-up each.`,
    '',
    '| operation | clients | after /s | before /s | after ÷ before (median of rounds) | per round | p99 ms after / before | failed | target ≥ 0.9 |',
    '|---|---:|---:|---:|---:|---|---|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.op} | ${r.clients} | ${r.afterRps.toFixed(0)} | ${r.beforeRps.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.roundRatios.map((x) => x.toFixed(2)).join(' ')} | ` +
        `${r.afterP99Ms.toFixed(1)} / ${r.beforeP99Ms.toFixed(1)} | ${r.failed} | ${r.ratio >= AB_TARGET && r.failed === 0 ? 'PASS' : 'FAIL'} |`,
    ),
  ];
}
