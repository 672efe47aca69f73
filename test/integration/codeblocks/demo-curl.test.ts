// The docs' / first start's curl lines of the download API work against the demo data as printed.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadDemo } from '../../../src/demo/demo.ts';
import { codeblocksDemoCurlLines } from '../../../src/codeblocks/codeblocks.demo.ts';

const BASE = 'http://localhost:8080';

/** Runs one printed curl line through supertest: `-u user:pw`, `-L`, and the quoted URL. */
async function runCurl(t: TestApp, line: string) {
  const user = /-u (\S+):(\S+)/.exec(line);
  const url = /'([^']+)'/.exec(line)?.[1];
  if (!user || !url) throw new Error(`cannot read ${line}`);
  const path = url.slice(BASE.length);
  const req = t.http.get(path).auth(user[1]!, user[2]!);
  return line.includes(' -L ') ? req.redirects(0).then(async (first) => {
    expect(first.status).toBe(301);
    return t.http.get(String(first.headers.location).slice(BASE.length)).auth(user[1]!, user[2]!);
  }) : req;
}

describe('code-block demo curl lines', () => {
  const t = useTestApp({ BASE_URL: BASE });
  beforeAll(async () => {
    await loadDemo(t.services);
  }, 120_000);

  it('E1, E2, E3 and the servlet redirect answer 200 with the demo blocks', async () => {
    const [e1, e2, e3, servlet] = codeblocksDemoCurlLines(BASE);
    const code = await runCurl(t, e1!);
    expect(code.status).toBe(200);
    expect(code.text).toBe('<VirtualHost *:80>\n    ServerName test1.example.org\n    DocumentRoot /var/www/test1\n</VirtualHost>\n');
    const xml = await runCurl(t, e2!);
    expect(xml.status).toBe(200);
    expect(xml.text).toContain('<name>testsystem 2</name>');
    const json = await runCurl(t, e3!);
    expect(json.status).toBe(200);
    expect(json.body.codeBlocks.map((b: { name: string }) => b.name)).toEqual(['staging', 'production', 'raw']);
    const raw = await runCurl(t, servlet!);
    expect(raw.status).toBe(200);
    expect(raw.text).toContain('ServerName ${base.url}');
  });
});
