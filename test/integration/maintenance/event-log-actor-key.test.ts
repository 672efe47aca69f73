import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { createField, FE, paths } from '../../helpers/tracker-fixtures.ts';

/**
 * The event log's filter by user finds every entry of a user whatever letters its name has. Entries written by
 * the option write functions (SQL) and by the server (TypeScript) must key the actor the same way: JavaScript's
 * toLowerCase and the database's lower() disagree on a final Σ ("ς" and "σ") and on "İ".
 */
describe('the event log keys every actor one way', () => {
  let t: TestApp;
  let greek: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    greek = await t.createUser('ΟΔΥΣΣΕΑΣ İ', { admin: true });
  });
  afterAll(() => t.close());

  const kindsOf = async (actor: string): Promise<string[]> => {
    const res = await t.http.get(`${FE}/maintenance/event_log_entries?actor=${encodeURIComponent(actor)}&maxResults=100`).set('Authorization', t.adminAuth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.values as { kind: string }[]).map((v) => v.kind).sort();
  };

  it('finds a grant (written by the server) and an option write (written by the database) of the same user', async () => {
    const field = await createField(t);
    await t.http.put(`${FE}/admin/customfields/${field.id}`).set('Authorization', greek.auth).send({ userlist: [greek.name], grouplist: [] }).expect(200);
    await t.http.post(paths(field.id, 'default').options).set('Authorization', greek.auth).send({ optionvalue: 'Ithaca', disabled: false }).expect(200);
    expect(await kindsOf(greek.name)).toEqual(['grants.replaced', 'option.created']);
  });

  it('re-keys the entries written before with the database lower() (migration 20261129040000)', async () => {
    const { knex } = t.services.db;
    await knex('event_log').insert({ actor: 'ΣΩΣ', actor_key: 'ΣΩΣ'.toLowerCase(), kind: 'settings.changed', target: JSON.stringify({ type: 'setting' }) });
    const { up } = await import('../../../migrations/20261129040000_event_log_actor_key_lower.ts');
    await up(knex);
    expect(await kindsOf('ΣΩΣ')).toEqual(['settings.changed']);
  });
});
