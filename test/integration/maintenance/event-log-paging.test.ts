import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { FE } from '../../helpers/tracker-fixtures.ts';
import { appendEvents } from '../../../src/fieldeditor/maintenance/event-log.repository.ts';
import { EventPages, TOTAL_TTL_MS } from '../../../src/fieldeditor/maintenance/event-log.pages.ts';

interface Page {
  total: number;
  startAt: number;
  values: { id: number; kind: string; time: string }[];
}

/**
 * Paging the event log: a page that starts where this node's previous page of the same filter ended continues
 * after that entry's key instead of walking the offset (event-log.pages.ts). The answers must be those of
 * offset paging whenever nothing changed in between, and offset paging itself after any change.
 */
describe('event log paging (keyset continuations behind startAt)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const list = async (query: string): Promise<Page> => {
    const res = await t.http.get(`${FE}/maintenance/event_log_entries?${query}`).set('Authorization', t.adminAuth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Page;
  };
  /** Every page of `size` from 0, as one array, and the totals each page answered. */
  const walk = async (query: string, size: number) => {
    const ids: number[] = [];
    const totals = new Set<number>();
    for (let startAt = 0; ; startAt += size) {
      const p = await list(`${query}&startAt=${startAt}&maxResults=${size}`);
      totals.add(p.total);
      if (p.values.length === 0) break;
      ids.push(...p.values.map((v) => v.id));
    }
    return { ids, totals: [...totals] };
  };

  beforeEach(async () => {
    const { knex } = t.services.db;
    await knex('event_log').del().returning('id');
    // 230 entries over 7 distinct times (many ties on the time: the id decides), two kinds, two fields.
    await knex.raw(
      `insert into event_log (created_at, actor, actor_key, kind, field_id, context_id, target)
       select now() - make_interval(secs => i % 7), 'Bench', 'bench', case when i % 3 = 0 then 'grant.revoked' else 'option.renamed' end,
              10000 + i % 2, 10100, jsonb_build_object('type', 'option', 'id', i)
         from generate_series(1, 230) i`,
    );
  });

  it('pages one at a time answer exactly the single big listing, for each filter', async () => {
    for (const filter of ['', 'kind=option.*', 'kind=grant.revoked&fieldId=10001', 'actor=BENCH&from=2020-01-01T00:00:00Z']) {
      const big = await list(`${filter}&maxResults=1000`);
      const paged = await walk(filter, 17);
      expect(paged.ids, filter).toEqual(big.values.map((v) => v.id));
      expect(paged.totals, filter).toEqual([big.total]);
    }
    expect((await list('kind=option.*&maxResults=0')).total).toBe(154);
  });

  it('continues after the key of the page this node served (no offset), and only then', async () => {
    const pages = new EventPages(t.services.db.knex);
    const f = { kinds: ['option.*'] };
    const first = await pages.page(f, 0, 50);
    const second = await pages.page(f, 50, 50);
    expect([first.continued, second.continued]).toEqual([false, true]);
    const byOffset = await new EventPages(t.services.db.knex).page(f, 50, 50);
    expect(byOffset.continued).toBe(false);
    expect(second.rows.map((r) => r.id)).toEqual(byOffset.rows.map((r) => r.id));
    // Another filter, or a startAt that is not the end of a served page: offset.
    expect((await pages.page({ kinds: ['grant.revoked'] }, 50, 50)).continued).toBe(false);
    expect((await pages.page(f, 60, 50)).continued).toBe(false);
    // The end of a page of another size is still the same place.
    expect((await pages.page(f, 100, 7)).continued).toBe(true);
  });

  it('a new entry between two pages: the next page is the offset page of the new state (the last entry again), with the new total', async () => {
    const one = await list('startAt=0&maxResults=100');
    await appendEvents(t.services.db.knex, [{ actor: 'admin', kind: 'settings.changed', target: { type: 'setting', key: 'x' } }]);
    const two = await list('startAt=100&maxResults=100');
    expect(two.total).toBe(one.total + 1);
    // Offset semantics: the newest entry pushed everything down by one.
    expect(two.values[0]!.id).toBe(one.values.at(-1)!.id);
    const fresh = await list('startAt=0&maxResults=1000');
    expect(two.values.map((v) => v.id)).toEqual(fresh.values.slice(100, 200).map((v) => v.id));
    // …and paging goes on by keyset again from there.
    const walked = await walk('', 30);
    expect(walked.ids).toEqual(fresh.values.map((v) => v.id));
  });

  it('a deletion between two pages (the oldest entries, as truncation does) falls back to offset and a fresh total', async () => {
    const { knex } = t.services.db;
    const pages = new EventPages(knex);
    await pages.page({}, 0, 100);
    // Compared in SQL: a JS Date would drop the microseconds.
    const gone = await knex('event_log').whereRaw('created_at <= (select min(created_at) from event_log)').del().returning('id');
    expect(gone.length).toBeGreaterThan(0);
    const next = await pages.page({}, 100, 100);
    expect(next.continued).toBe(false);
    expect(next.total).toBe(Number((await knex('event_log').count({ n: '*' }).first())!.n));
  });

  it('a change the mark cannot see (a row written with an explicit id) shows in the total after TOTAL_TTL_MS at the latest', async () => {
    const { knex } = t.services.db;
    let now = 1_000_000;
    const pages = new EventPages(knex, () => now);
    const before = (await pages.page({}, 0, 10)).total;
    await knex('event_log').insert({ id: 1_000_000_000, actor: 'x', actor_key: 'x', kind: 'settings.changed', target: JSON.stringify({ type: 'setting' }) });
    expect((await pages.page({}, 10, 10)).total).toBe(before);
    now += TOTAL_TTL_MS;
    expect((await pages.page({}, 20, 10)).total).toBe(before + 1);
  });
});
