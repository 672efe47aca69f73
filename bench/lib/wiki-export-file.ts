// The big export of bench/wiki-export.ts, written as a stream (nothing of it is held in memory): one space
// with a page tree eight wide, each page a few kilobytes of storage format with a code-block macro; every
// fourth page has a comment, every tenth an older version, every twentieth an attachment, every fiftieth a
// view restriction. Ids are above 2^31, as in cloud exports. Built with the tests' export writer, so the
// bench reads what the tests read.
import { writeExportZipFrom } from '../../test/helpers/wiki-export-builder.ts';
import { ExportXmlWriter } from '../../test/helpers/wiki-export-xml.ts';

const WORDS = (
  'deploy server script cluster backup restore config install upgrade network proxy certificate database ' +
  'replica failover monitor alert rotate token secret vault build release package mirror schedule'
).split(' ');

/** Deterministic filler: the same export every run, not so repetitive that it compresses to nothing. */
function prose(seed: number, words: number): string {
  let x = seed * 2654435761 + 1;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

function body(i: number): string {
  const script = Array.from({ length: 12 }, (_, k) => `${prose(i * 31 + k, 6).replaceAll(' ', '-')} --step ${k} && echo "ok ${i}"`).join('\n');
  return (
    `<h1>Runbook ${i}</h1><p>${prose(i, 180)}</p>` +
    `<ac:structured-macro ac:name="advanced-codeblock-macro" ac:macro-id="bench-${i}">` +
    `<ac:parameter ac:name="language">bash</ac:parameter><ac:plain-text-body><![CDATA[${script}]]></ac:plain-text-body>` +
    `</ac:structured-macro><p>${prose(i + 7, 120)}</p>`
  );
}

export interface BenchExport {
  bytes: number;
  pages: number;
  comments: number;
}

/** Writes the export to `file` until entities.xml holds about `targetBytes`. */
export function writeBenchExport(file: string, targetBytes: number): BenchExport {
  const made: BenchExport = { bytes: 0, pages: 0, comments: 0 };
  function* chunks(): Generator<string> {
    const w = new ExportXmlWriter({ bigIds: true });
    const emit = (s: string) => {
      made.bytes += Buffer.byteLength(s);
      return s;
    };
    yield emit(w.header());
    const users = Array.from({ length: 200 }, (_, k) => `user${k}`);
    for (const name of users) {
      yield* w.confluenceUser(name, { name, email: `${name}@example.com` }).map(emit);
      yield* w.internalUser({ name, displayName: `User ${name}`, email: `${name}@example.com` }).map(emit);
    }
    for (let g = 0; g < 20; g++) yield* w.group({ name: `team${g}`, members: users.slice(g * 10, g * 10 + 10) }).map(emit);
    yield* w.space({ id: 1, key: 'BENCH', name: 'Bench space', description: 'A big space', homePageId: 10 }).map(emit);
    for (let i = 0; made.bytes < targetBytes; i++) {
      const page = {
        id: 10 + i,
        title: `Runbook ${i}: ${prose(i, 4)}`,
        body: body(i),
        position: i % 8,
        version: 1 + (i % 3),
        creator: users[i % users.length],
        created: new Date(Date.UTC(2020, 0, 1) + i * 60_000),
        historicalVersions: i % 10 === 0 ? 1 : 0,
        attachments: i % 20 === 0 ? 1 : 0,
        view: i % 50 === 25 ? { users: [users[i % 200]!], groups: [`team${i % 20}`] } : undefined,
        comments: i % 4 === 0 ? [{ id: 500_000_000 + i, body: `<p>${prose(i + 3, 40)}</p>`, creator: users[(i + 1) % 200] }] : [],
      };
      made.pages++;
      made.comments += page.comments.length;
      yield* w.content('Page', 1, page, i === 0 ? undefined : 10 + Math.floor((i - 1) / 8)).map(emit);
    }
    yield emit(w.footer());
  }
  writeExportZipFrom(file, chunks());
  return made;
}
