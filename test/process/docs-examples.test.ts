// The shell examples of the README and of every page under docs/ run top to bottom against a fresh demo server,
// and answer what the text says they answer (conventions: docs/README.md "Shell examples").
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHEAP_HASHES, migratedDataDir, startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { compareAnswer, docsSteps, runPage } from '../helpers/docs-examples.ts';
import { writeExportZip, type ExportDescription } from '../helpers/wiki-export-builder.ts';
import { spawn, type ChildProcess } from 'node:child_process';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The order the pages run in, one after another on the same server (the order of the table in docs/README.md):
 * a reader may follow them in this order without restarting. Each page runs in a bash session of its own, so it
 * must define what it uses.
 */
const PAGES = [
  'README.md',
  'docs/README.md',
  'docs/codeblocks-api.md',
  'docs/fieldeditor-api.md',
  'docs/host-api.md',
  'docs/maintenance.md',
  'docs/webhooks.md',
  'docs/web-interface.md',
  'docs/openapi.md',
  'docs/observability.md',
  'docs/configuration.md',
  'docs/security.md',
  'docs/operations.md',
  'docs/architecture.md',
  'docs/performance.md',
  'docs/migration.md',
];

/** A webhook receiver on a free port of 127.0.0.1 that answers every request 200 and prints its port. */
const RECEIVER = `const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => r.end('thanks')); });
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

/**
 * The space export docs/migration.md's "Migration day" starts from (Confluence-space-export-SRE.xml.zip, as the
 * wiki names it): a space SRE whose page holds a code box and a comment, written by quinn.
 */
const SRE_EXPORT: ExportDescription = {
  users: [{ name: 'quinn', displayName: 'Quinn' }],
  spaces: [
    {
      id: 98400,
      key: 'SRE',
      name: 'Site reliability',
      homePageId: 885001,
      pages: [
        {
          id: 885001,
          title: 'Deploy',
          creator: 'quinn',
          version: 3,
          body:
            '<p>Deploy</p><ac:structured-macro ac:name="advanced-codeblock-macro" ac:schema-version="1" ' +
            'ac:macro-id="7e1d0000-0000-4000-8000-000000000101"><ac:plain-text-body><![CDATA[./deploy.sh prod]]></ac:plain-text-body></ac:structured-macro>',
          comments: [{ id: 885002, body: '<p>Run it after six.</p>', creator: 'quinn' }],
        },
      ],
    },
  ],
};

const hasJq = (() => {
  try {
    execFileSync('bash', ['-c', 'command -v jq'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the documentation', () => {
  it('lists every page under docs/ here', () => {
    const pages = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(PAGES.filter((p) => p.startsWith('docs/')).sort()).toEqual(pages.sort());
  });

  it('links only to files and headings that exist', () => {
    // GitHub's anchors: the heading in lower case, punctuation dropped, spaces as hyphens.
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-');
    const anchorsOf = (file: string) =>
      new Set(
        [...fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '').matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!.replace(/`/g, ''))),
      );
    const broken: string[] = [];
    for (const page of PAGES) {
      const text = fs.readFileSync(path.join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#');
        const resolved = file ? path.resolve(path.dirname(path.join(ROOT, page)), file) : path.join(ROOT, page);
        if (!fs.existsSync(resolved)) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('pairs every expected answer with a command, and gives some', () => {
    const steps = PAGES.flatMap((p) => docsSteps(fs.readFileSync(path.join(ROOT, p), 'utf8')));
    expect(steps.length).toBeGreaterThan(30);
    expect(steps.filter((s) => s.expect).length).toBeGreaterThan(20);
  });
});

// The examples read answers with jq (docs/README.md); .ci/run installs it. Skipped where it is missing.
describe.skipIf(!hasJq)('the shell examples of the documentation, against a fresh demo server', () => {
  let server: ServerProcess;
  let dataDir: string | undefined;
  // docs/webhooks.md posts to a receiver at http://127.0.0.1:9000/hooks: one in a process of its own stands in for
  // it (the pages run synchronously, so a receiver in this process could not answer).
  let receiver: ChildProcess | undefined;
  let receiverBase = '';
  const replace = () => ({ 'http://127.0.0.1:9000': receiverBase });
  // What every page's shell has besides the server: `addon-pair` finds the server's folder, and the files the
  // pages say the reader has are in its working folder.
  const pageEnv = () => ({ DATA_DIR: dataDir!, LOG_LEVEL: 'warn' });
  const files: Record<string, Uint8Array> = {};
  beforeAll(async () => {
    receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    receiverBase = await new Promise<string>((resolve, reject) => {
      receiver!.stdout!.once('data', (d: Buffer) => resolve(`http://127.0.0.1:${d.toString().trim()}`));
      receiver!.once('exit', () => reject(new Error('the webhook receiver did not start')));
    });
    // A migrated folder of its own (the demo data is still seeded at the start): no initdb in the server.
    dataDir = migratedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-docs-')));
    const zip = path.join(dataDir, '..', `ops-export-${process.pid}.zip`);
    writeExportZip(zip, SRE_EXPORT);
    files['Confluence-space-export-SRE.xml.zip'] = fs.readFileSync(zip);
    fs.rmSync(zip);
    // The passwords the pages set (and the demo users') at the tests' cheap scrypt cost: no answer shows the cost,
    // and at the real one the hashes were a third of the server's time.
    server = await startServerProcess(
      { ...CHEAP_HASHES, DATA_DIR: dataDir, DEMO: '1', ADMIN_PASSWORD: '', LOG_LEVEL: 'warn', WEBHOOK_ALLOWLIST: `${receiverBase}/hooks`, WEBHOOK_POLL_MS: '100' },
      120_000,
    );
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
    receiver?.kill();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Before the pages, as a reader would: the curl lines the first start prints work as printed in a plain
  // shell, twice, and only read, so the pages after them still get the answers they show.
  it('the start-up banner prints curl lines that work, twice, and only read', () => {
    const lines = server
      .output()
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('curl '));
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line, 'a banner line that writes').not.toMatch(/ -d | --data| -X (?!GET)/);
    const steps = [...lines, ...lines].map((script, i) => ({ line: i + 1, script }));
    const run = runPage(steps, server.url, { timeoutMs: 60_000 });
    if (run.failed !== undefined) {
      throw new Error(`the banner line failed: ${steps[run.failed]?.script}\n${run.outputs[run.failed]?.stdout}${run.outputs[run.failed]?.stderr}`);
    }
  }, 90_000);

  for (const page of PAGES) {
    it(`${page}: every sh block runs and answers as written`, () => {
      const steps = docsSteps(fs.readFileSync(path.join(ROOT, page), 'utf8'));
      if (steps.length === 0) return;
      const run = runPage(steps, server.url, { timeoutMs: 90_000, replace: replace(), env: pageEnv(), files });
      if (run.failed !== undefined) {
        const step = steps[run.failed];
        const output = run.outputs[run.failed];
        throw new Error(
          `${page}: the sh block at line ${step?.line} failed (exit ${run.exitCode}):\n${step?.script}\n--- stdout\n${output?.stdout}\n--- stderr\n${output?.stderr}`,
        );
      }
      const problems = steps.flatMap((step, i) => {
        const diff = compareAnswer(step, run.outputs[i]!.stdout, server.url, replace());
        return diff ? [`${page}:${step.line} (answer at line ${step.expect!.line}):\n${step.script}\n${diff}`] : [];
      });
      expect(problems).toEqual([]);
    }, 120_000);
  }
});
