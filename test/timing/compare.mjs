#!/usr/bin/env node
// Compares the tests of two runs, so a change to how the suite runs can show that every test still exists and
// still runs: `node test/timing/compare.mjs before.json after.json`. Each file is either what the timing reporter
// wrote (TEST_TIMINGS, with each test's state) or `vitest list --json=<file>` (names only). Tests are keyed by
// database, path relative to the repository and full name: the database is `postgres` for the project of that
// name and `pglite` for every other (the `process` project, and the `pglite` project that ran test/process and
// test/browser before they had a project of their own, both run on the embedded database). Some names hold a
// random value (a generated session id), so a name missing from `after` fails the comparison only when its file
// has fewer tests than before. Exits 1 then, or when a test passed before and did not pass after.
import fs from 'node:fs';
import path from 'node:path';

function load(file) {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  const entries = Array.isArray(data)
    ? data.map((t) => ({ project: t.projectName ?? '', file: t.file, name: t.name, state: undefined }))
    : data.tests;
  const tests = new Map();
  const seen = new Map();
  for (const t of entries) {
    // `vitest list` gives absolute paths: keep the part from test/ on, which is what the reporter records.
    const at = t.file.lastIndexOf(`${path.sep}test${path.sep}`);
    const rel = at >= 0 ? t.file.slice(at + 1) : t.file;
    const base = `${t.project === 'postgres' ? 'postgres' : 'pglite'}\t${rel}\t${t.name}`;
    // Tests of the same name (a loop without a distinct title) are told apart by their order.
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    tests.set(n === 1 ? base : `${base}\t#${n}`, t.state);
  }
  return tests;
}

const fileOf = (key) => key.split('\t').slice(0, 2).join('\t');
function countByFile(tests) {
  const by = new Map();
  for (const k of tests.keys()) by.set(fileOf(k), (by.get(fileOf(k)) ?? 0) + 1);
  return by;
}
const short = (key) => {
  const s = key.replaceAll('\t', '  ');
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: node test/timing/compare.mjs <before.json> <after.json>');
  process.exit(2);
}
const before = load(beforeFile);
const after = load(afterFile);
const filesBefore = countByFile(before);
const filesAfter = countByFile(after);
const shrunk = [...filesBefore]
  .filter(([f, n]) => (filesAfter.get(f) ?? 0) < n)
  .map(([f, n]) => `${f.replace('\t', '  ')}  ${n} -> ${filesAfter.get(f) ?? 0}`);
const missing = [...before.keys()].filter((k) => !after.has(k));
const lost = missing.filter((k) => shrunk.some((s) => s.startsWith(fileOf(k).replace('\t', '  '))));
const renamed = missing.filter((k) => !lost.includes(k));
const regressed = [...before].filter(
  ([k, s]) => s === 'passed' && after.get(k) !== undefined && after.get(k) !== 'passed',
);
const perDatabase = (tests) => {
  const by = new Map();
  for (const k of tests.keys()) by.set(k.split('\t')[0], (by.get(k.split('\t')[0]) ?? 0) + 1);
  return [...by]
    .sort()
    .map(([db, n]) => `${db} ${n}`)
    .join(', ');
};

console.log(`before: ${before.size} tests in ${filesBefore.size} files (${perDatabase(before)})`);
console.log(`after:  ${after.size} tests in ${filesAfter.size} files (${perDatabase(after)})`);
const show = (title, lines) => {
  console.log(`${title}: ${lines.length}`);
  for (const l of lines) console.log(`  ${l}`);
};
show('files with fewer tests after', shrunk);
show('tests missing from them', lost.map(short));
show(
  'passed before, not after',
  regressed.map(([k]) => `${short(k)}  (${after.get(k)})`),
);
show('names only in before, in files that kept their count (random values in names)', renamed.map(short));
show('tests only in after', [...after.keys()].filter((k) => !before.has(k)).map(short));
process.exit(shrunk.length || regressed.length ? 1 : 0);
