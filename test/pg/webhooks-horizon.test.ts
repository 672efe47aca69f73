import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { EventHorizon } from '../../src/webhooks/event-horizon.ts';

const entry = { actor: 'system', actor_key: 'system', kind: 'option.created', target: JSON.stringify({ type: 'test' }) };

// Real PostgreSQL: event-log ids come from a sequence inside each change's transaction, so an entry can commit
// after a higher one. The webhooks' horizon must wait for it rather than move past it (and lose it), and must
// pass an id whose transaction rolled back.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the webhooks event horizon (PostgreSQL)', () => {
  const t = useTestApp();
  const newest = async () => Number(((await t.services.db.knex('event_log').max('id as id').first()) as { id: string | null }).id ?? 0);
  const insert = async (q: typeof t.services.db.knex) => Number(((await q('event_log').insert(entry).returning('id')) as { id: string }[])[0]!.id);

  it('stops below an entry whose transaction is still open, and passes it once it commits', async () => {
    const knex = t.services.db.knex;
    const start = await newest();
    const horizon = new EventHorizon();
    expect(await horizon.advance(knex, start)).toBe(start);
    const slow = await knex.transaction();
    const early = await insert(slow); // takes its id first, commits last
    const late = await insert(knex);
    expect(late).toBeGreaterThan(early);
    for (let i = 0; i < 3; i++) expect(await horizon.advance(knex, start)).toBe(early - 1);
    await new Promise((r) => setTimeout(r, 1100)); // older than the gap's minimum age: still waits, the transaction runs
    expect(await horizon.advance(knex, start)).toBe(early - 1);
    await slow.commit();
    expect(await horizon.advance(knex, start)).toBe(late);
  });

  it('passes the id of a rolled-back entry once its transaction ended and a second went by', async () => {
    const knex = t.services.db.knex;
    const start = await newest();
    const horizon = new EventHorizon();
    const doomed = await knex.transaction();
    const lost = await insert(doomed);
    const kept = await insert(knex);
    expect(await horizon.advance(knex, start)).toBe(lost - 1);
    await doomed.rollback();
    expect(await horizon.advance(knex, start)).toBe(lost - 1); // just rolled back: not yet a second old
    await new Promise((r) => setTimeout(r, 1100));
    expect(await horizon.advance(knex, start)).toBe(kept);
  });
});
