// The endpoint × credential × permission matrix, run once per generation (one file per generation, so each
// gets its own app with its CODEBLOCKS_COMPAT). Every documented status of every endpoint is checked.
import { beforeAll, describe, expect, it } from 'vitest';
import { basic, useTestApp } from '../../helpers/test-app.ts';
import { keyOf } from '../../helpers/wiki-fixtures.ts';
import {
  buildScenario,
  ENDPOINT_PATHS,
  expect401,
  expect403,
  expect500,
  fields,
  parseXml,
  type Endpoint,
  type Gen,
  type Scenario,
} from './support.ts';

const ENDPOINTS: Endpoint[] = ['E1', 'code', 'E2', 'E3'];

export function defineMatrix(gen: Gen): void {
  describe(`code-block API, generation ${gen}`, () => {
    const t = useTestApp({ CODEBLOCKS_COMPAT: gen, BASE_URL: 'http://cb.example.test/wiki' });
    let s: Scenario;
    const contentParam = gen === '3.4' ? 'pageId' : 'contentId';

    beforeAll(async () => {
      s = await buildScenario(t, `g${gen.replace('.', '')}`);
    });

    const query = (endpoint: Endpoint, box: { contentId: number; macroId: string }, key = keyOf('alpha')) => {
      const q: Record<string, string> = { macroId: box.macroId, [contentParam]: String(box.contentId) };
      if (endpoint === 'E1' || endpoint === 'code') q.key = key;
      return q;
    };
    const get = (endpoint: Endpoint, q: Record<string, string>, auth?: string) => {
      const req = t.http.get(`/wiki${ENDPOINT_PATHS[endpoint]}`).query(q);
      return auth === undefined ? req : req.set('Authorization', auth);
    };
    const auths = () => ({ basic: s.reader.auth, bearer: s.readerBearer });

    for (const endpoint of ENDPOINTS) {
      for (const via of ['basic', 'bearer'] as const) {
        describe(`${endpoint} with ${via}`, () => {
          it('answers 200 for a page, a blog post and a comment the user may view', async () => {
            for (const box of [s.allowed, s.blogpost, s.comment]) {
              const res = await get(endpoint, query(endpoint, box), auths()[via]);
              expect(res.status).toBe(200);
              if (endpoint === 'E1' || endpoint === 'code') {
                expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
                expect(res.text).toBe('server a.example.org;\n');
              } else if (endpoint === 'E2') {
                expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
                const root = parseXml(res.text);
                expect(root.children.map((c) => c.name)).toEqual([gen === '3.4' ? 'page' : 'content', 'codeBlocks']);
                expect(fields(root.children[1]!.children[0]!).name).toBe('alpha');
              } else {
                expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
                expect(Object.keys(res.body as object)).toEqual([gen === '3.4' ? 'page' : 'content', 'codeBlocks']);
              }
            }
          });

          it('answers 403 naming the content id without view permission', async () => {
            const denied = [s.noSpace, s.underRestricted, s.commentOfRestricted];
            for (const box of denied) expect403(gen, endpoint, await get(endpoint, query(endpoint, box), auths()[via]), box.contentId);
            const outsider = via === 'basic' ? s.outsider.auth : s.outsiderBearer;
            expect403(gen, endpoint, await get(endpoint, query(endpoint, s.allowed), outsider), s.allowed.contentId);
          });

          it('answers 500 for trashed content and for a comment of trashed content', async () => {
            for (const box of [s.trashed, s.commentOfTrashed]) {
              expect500(gen, endpoint, await get(endpoint, query(endpoint, box), auths()[via]), 'FETCH_MACRO', 'trash');
            }
          });

          it('answers 500 for unknown content, unknown macro and bad parameters', async () => {
            const auth = auths()[via];
            expect500(gen, endpoint, await get(endpoint, query(endpoint, { contentId: 999999, macroId: s.allowed.macroId }), auth), 'FETCH_MACRO', 'does not exist');
            expect500(gen, endpoint, await get(endpoint, query(endpoint, { ...s.allowed, macroId: 'nope' }), auth), 'FETCH_MACRO', 'no code box');
            expect500(gen, endpoint, await get(endpoint, { [contentParam]: 'abc', macroId: 'x', key: 'cmF3' }, auth), 'INVALID_URL_PARAMETER', contentParam);
            expect500(gen, endpoint, await get(endpoint, { [contentParam]: String(s.allowed.contentId), key: 'cmF3' }, auth), 'INVALID_URL_PARAMETER', 'macroId is required');
            if (endpoint === 'E1' || endpoint === 'code') {
              expect500(gen, endpoint, await get(endpoint, query(endpoint, s.allowed, keyOf('gamma')), auth), 'INVALID_URL_PARAMETER', 'gamma');
              expect500(gen, endpoint, await get(endpoint, query(endpoint, s.allowed, '!!'), auth), 'INVALID_URL_PARAMETER', 'key');
            }
          });
        });
      }

      describe(`${endpoint} without a usable login`, () => {
        it('answers 401 without credentials, with a wrong password and with a bad token', async () => {
          expect401(gen, endpoint, await get(endpoint, query(endpoint, s.allowed)));
          const wrong = await get(endpoint, query(endpoint, s.allowed), basic(s.reader.name, 'wrong-password'));
          expect401(gen, endpoint, wrong);
          expect(wrong.headers['x-seraph-loginreason']).toBe('AUTHENTICATED_FAILED');
          expect401(gen, endpoint, await get(endpoint, query(endpoint, s.allowed), 'Bearer not-a-token'));
          // Authentication comes before parameter checks, as when the host authenticates.
          expect401(gen, endpoint, await get(endpoint, { macroId: 'x' }));
        });
      });
    }

    it('answers 401 with AUTHENTICATION_DENIED on every endpoint once the user is locked out', async () => {
      const victim = await t.createUser(`locked-g${gen.replace('.', '')}`, { groups: [] });
      for (let i = 0; i < 3; i++) await get('E1', query('E1', s.allowed), basic(victim.name, 'bad'));
      for (const endpoint of ENDPOINTS) {
        const res = await get(endpoint, query(endpoint, s.allowed), victim.auth);
        expect401(gen, endpoint, res);
        expect(res.headers['x-seraph-loginreason']).toBe('AUTHENTICATION_DENIED');
        expect(res.headers['www-authenticate']).toBeDefined();
      }
    });

    it('answers 500 INVALID_MACRO_BODY for a multi box without [content] on every endpoint', async () => {
      const box = { contentId: s.allowed.contentId, macroId: await s.fx.codebox(s.allowed.contentId, 'advanced-codeblock-macro', '[a]\nx = 1\n') };
      for (const endpoint of ENDPOINTS) {
        expect500(gen, endpoint, await get(endpoint, query(endpoint, box, 'cmF3'), s.reader.auth), 'INVALID_MACRO_BODY');
      }
    });

    it('redirects the servlet paths with 301 and renamed parameters, for anyone', async () => {
      const code = await t.http
        .get('/wiki/plugins/servlet/advanced-codeblock-macro-downloadcode')
        .query({ pagepropertykey: 'cmF3', macroid: 'm-1', pageid: '42', asciionly: 'true', os_authType: 'basic', extra: 'kept' })
        .expect(301);
      expect(code.headers.location).toBe(
        `http://cb.example.test/wiki/rest/advancedcodeblocks/1/download_code/plain_text?key=cmF3&macroId=m-1&${contentParam}=42&asciiOnly=true&extra=kept`,
      );
      const list = await t.http.get('/wiki/plugins/servlet/advanced-codeblock-macro-downloadlist?macroid=m-2&pageid=7').expect(301);
      expect(list.headers.location).toBe(`http://cb.example.test/wiki/rest/advancedcodeblocks/1/download_list/xml?macroId=m-2&${contentParam}=7`);
    });
  });
}
