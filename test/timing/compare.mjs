#!/usr/bin/env node
// Compares the tests of two runs, so a change to how the suite runs can show that every test still exists and
// still runs: `node test/timing/compare.mjs before.json after.json`. Each file is either what the timing reporter
// wrote (TEST_TIMINGS, with each test's state) or `vitest list --json=<file>` (names only). Tests are keyed by
// database, path relative to the repository and full name: the database is `postgres` for the project of that
// name and `pglite` for every other (the `process` project, and the `pglite` project that ran test/process and
// test/browser before they had a project of their own, both run on the embedded database). Exits 1 when a test
// of `before` is missing from `after`, or passed before and did not pass after.
import fs from 'node:fs';
import path from 'node:path';

function load(file) {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  const entries = Array.isArray(data)
    ? data.map((t) => ({ project: t.projectName ?? '', file: t.file, name: t.name, state: undefined }))
    : data.tests;
  const map = new Map();
  for (const t of entries) {
    // `vitest list` gives absolute paths: keep the part from test/ on, which is what the reporter records.
    const rel = t.file.includes(`${path.sep}test${path.sep}`)
      ? t.file.slice(t.file.lastIndexOf(`${path.sep}test${path.sep}`) + 1)
      : t.file;
    const key = `${t.project === 'postgres' ? 'postgres' : 'pglite'}\t${rel}\t${t.name}`;
    if (map.has(key)) map.set(`${key}\t#${map.size}`, t.state);
    else map.set(key, t.state);
  }
  return map;
}

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: node test/timing/compare.mjs <before.json> <after.json>');
  process.exit(2);
}
const before = load(beforeFile);
const after = load(afterFile);
const missing = [...before.keys()].filter((k) => !after.has(k));
const added = [...after.keys()].filter((k) => !before.has(k));
const regressed = [...before].filter(
  ([k, s]) => s === 'passed' && after.has(k) && after.get(k) !== undefined && after.get(k) !== 'passed',
);

const count = (map) => {
  const by = new Map();
  for (const k of map.keys()) {
    const p = k.split('\t')[0];
    by.set(p, (by.get(p) ?? 0) + 1);
  }
  return [...by]
    .sort()
    .map(([p, n]) => `${p} ${n}`)
    .join(', ');
};
console.log(`before: ${before.size} tests (${count(before)})`);
console.log(`after:  ${after.size} tests (${count(after)})`);
const show = (title, keys) => {
  console.log(`${title}: ${keys.length}`);
  for (const k of keys) console.log(`  ${k.replaceAll('\t', '  ')}`);
};
show('missing after', missing);
show(
  'passed before, not after',
  regressed.map(([k]) => `${k}\t(${after.get(k)})`),
);
show('new after', added);
process.exit(missing.length || regressed.length ? 1 : 0);
