// The scale run as a command of its own (bench/README.md, "Scale on many cores"). Runs from the sources
//   npx tsx bench/scale/main.ts --out /tmp/scale --nodes 1,2 --write-sec 3 --read-sec 3
// or, on a machine without tsx, from the bundle that bench/scale/pack.sh puts in the kit:
//   node bench.mjs --entry after/dist/main.mjs --before before/dist/main.mjs --out "$OUT"
// Exits 1 only when the harness broke (no figures); failed targets are in the report, as with `npm run bench`.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_BENCH_DATABASE_URL } from '../lib/database.ts';
import { runScaleBench } from './run-scale.ts';

const { values } = parseArgs({
  options: {
    entry: { type: 'string', default: 'dist/main.mjs' },
    before: { type: 'string' },
    out: { type: 'string', default: process.env.SCALE_OUT ?? path.join(os.tmpdir(), 'addon-pair-scale') },
    commit: { type: 'string', default: process.env.SCALE_COMMIT ?? 'unknown' },
    'before-commit': { type: 'string', default: process.env.SCALE_BEFORE_COMMIT ?? 'a765e55' },
    nodes: { type: 'string', default: '1,2,4,8' },
    'write-sec': { type: 'string', default: '10' },
    'read-sec': { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    'write-clients': { type: 'string', default: '4' },
    'read-connections': { type: 'string', default: '16' },
    'ab-rounds': { type: 'string', default: '4' },
    'ab-sec': { type: 'string', default: '3' },
    'ab-clients': { type: 'string', default: '1,4' },
  },
});
const list = (s: string) => s.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);

const result = await runScaleBench({
  entry: values.entry,
  beforeEntry: values.before,
  adminUrl: process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL,
  outDir: values.out,
  commit: values.commit,
  beforeCommit: values['before-commit'],
  command: `scale ${process.argv.slice(2).join(' ')}`,
  nodes: list(values.nodes),
  writeSec: Number(values['write-sec']),
  readSec: Number(values['read-sec']),
  warmupSec: Number(values.warmup),
  writeClients: Number(values['write-clients']),
  readConnections: Number(values['read-connections']),
  abRounds: Number(values['ab-rounds']),
  abSec: Number(values['ab-sec']),
  abClients: list(values['ab-clients']),
});
process.stdout.write(`\n${result.markdown}\n`);
process.exit(result.failed ? 1 : 0);
