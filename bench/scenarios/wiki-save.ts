// Wiki: saving a page is the write path that keeps the code-box index; target: a page with 20 code boxes
// saves (one transaction: parse, macro ids, version row, index rows) in under 100 ms.
import { bearer, expectStatus } from '../lib/context.ts';
import type { BenchContext, Scenario } from '../lib/types.ts';

const BOXES = 20;
const SPACE = 'BENCHWIKI';

/** A page body with 20 multi code boxes (3 sections each and a template), without macro ids. */
function pageBody(i: number): string {
  const boxes: string[] = [];
  for (let b = 0; b < BOXES; b++) {
    const config = [1, 2, 3].map((s) => `[env ${s}]\nhost = h${s}-${b}.example.org\nport = ${8000 + s}\n`).join('\n');
    const template = `server {\n  listen \${port};\n  server_name \${host};\n  # save ${i} box ${b}\n}\n`;
    boxes.push(
      `<h2>Box ${b}</h2><ac:structured-macro ac:name="advanced-codeblock-macro" ac:schema-version="1">` +
        `<ac:parameter ac:name="globaltitle">Box ${b}</ac:parameter><ac:parameter ac:name="lang">Nginx</ac:parameter>` +
        `<ac:plain-text-body><![CDATA[${config}\n[content]\n${template}]]></ac:plain-text-body></ac:structured-macro>`,
    );
  }
  return `<p>Benchmark page, save ${i}.</p>${boxes.join('')}`;
}

async function token(ctx: BenchContext): Promise<string> {
  const res = await ctx.http('POST', '/rest/pat/latest/tokens', { auth: ctx.adminAuth, body: { name: 'bench-wiki' } });
  expectStatus(res, 201, 'creating the wiki bench token');
  return bearer((res.body as { rawToken: string }).rawToken);
}

export const scenarios: Scenario[] = [
  {
    kind: 'latency',
    name: 'wiki-save-20-codeboxes',
    description: `PUT /rest/api/content/{id}: a new version of a page with ${BOXES} code boxes (ids assigned, index rewritten)`,
    iterations: 100,
    warmupIterations: 5,
    async setup(ctx) {
      // A token, so the timing measures the save and not a password hash per request.
      const auth = await token(ctx);
      const space = await ctx.http('POST', '/rest/api/space', { auth, body: { key: SPACE, name: 'Bench wiki' } });
      if (space.status !== 200) expectStatus(space, 200, 'creating the bench space');
      const page = await ctx.http('POST', '/rest/api/content', {
        auth,
        body: { type: 'page', title: `Bench ${Date.now()}`, space: { key: SPACE }, body: { storage: { value: pageBody(0), representation: 'storage' } } },
      });
      expectStatus(page, 200, 'creating the bench page');
      // The administrator may create but not read (no implicit view): grant read so updates are allowed.
      const grant = await ctx.http('POST', `/rest/api/space/${SPACE}/permission`, {
        auth,
        body: { subject: { type: 'user', identifier: ctx.adminUsername }, operation: { key: 'read', target: 'space' } },
      });
      expectStatus(grant, 200, 'granting read on the bench space');
      ctx.state.wikiAuth = auth;
      ctx.state.wikiPage = (page.body as { id: string }).id;
      ctx.state.wikiVersion = 1;
    },
    async call(ctx, i) {
      const version = Number(ctx.state.wikiVersion) + 1;
      const res = await ctx.http('PUT', `/rest/api/content/${String(ctx.state.wikiPage)}`, {
        auth: String(ctx.state.wikiAuth),
        body: { type: 'page', title: 'Bench page', version: { number: version }, body: { storage: { value: pageBody(i + 1), representation: 'storage' } } },
      });
      expectStatus(res, 200, `saving version ${version}`);
      ctx.state.wikiVersion = version;
    },
    targets: [{ maxMedianMs: 100 }],
  },
];
