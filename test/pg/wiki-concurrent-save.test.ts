import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../helpers/test-app.ts';
import { createContent, createSpace } from '../helpers/wiki-fixtures.ts';

// Real PostgreSQL only: two saves of the same version race on separate connections; exactly one may win.
describe.skipIf(!process.env.TEST_DATABASE_URL)('wiki: concurrent saves', () => {
  const t = useTestApp();
  let writer: TestUser;

  beforeAll(async () => {
    writer = await t.createUser('race-writer', { groups: ['race-team'] });
    await createSpace(t, 'RACE', { groups: ['race-team'] }, { groups: ['race-team'] });
  }, 60_000);

  it('two updates to version 2 at once: one 200, one 409, one history row, index of the winner', async () => {
    const page = await createContent(t, writer.auth, { title: 'Race', space: 'RACE' });
    const box = (host: string) =>
      `<ac:structured-macro ac:name="advanced-codeblock-macro" ac:macro-id="race-box"><ac:plain-text-body><![CDATA[[s]\nhost = ${host}\n[content]\n\${host}]]></ac:plain-text-body></ac:structured-macro>`;
    const put = (host: string) =>
      t.http
        .put(`/rest/api/content/${page.id}`)
        .set('Authorization', writer.auth)
        .send({ type: 'page', title: 'Race', version: { number: 2 }, body: { storage: { value: box(host) } } });
    const results = await Promise.all([put('a'), put('b'), put('c')]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const winner = results.find((r) => r.status === 200)!;
    const host = /host = (\w)/.exec(winner.body.body.storage.value)?.[1];
    const versions = await t.services.db.knex('content_versions').where({ content_id: Number(page.id) }).pluck('number');
    expect(versions.sort()).toEqual([1, 2]);
    const rows = await t.services.db.knex('codeboxes').where({ content_id: Number(page.id) });
    expect(rows).toHaveLength(1);
    expect(rows[0].sections[0].values.host).toBe(host);
  });
});
