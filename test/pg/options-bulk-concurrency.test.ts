import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../helpers/test-app.ts';
import { addOptions, createField, grant, paths, type OptionJson } from '../helpers/tracker-fixtures.ts';

// Real PostgreSQL (a pool of connections): batches, syncs, single writes and default writes on one option tree
// at once keep the tree's invariants (issue 27): no duplicate names among siblings, one order per list
// (distinct positions, dense sequences), defaults that name existing, enabled options of their list; no 500,
// no deadlock (which would answer 409 or 500).
describe.skipIf(!process.env.TEST_DATABASE_URL)('batches, syncs and single writes on one tree (PostgreSQL)', () => {
  const t = useTestApp();
  let bob: TestUser;
  // A user runs one option sync at a time (409001), so each concurrent sync is a script of a user of its own.
  let syncers: TestUser[];
  beforeAll(async () => {
    bob = await t.createUser('bob-bulk-race');
    syncers = await Promise.all(Array.from({ length: 6 }, (_, i) => t.createUser(`sync-script-${i}`)));
  });

  async function listInvariants(contextId: number, parentId: number | null, listUrl: string) {
    const rows = (await t.services.db.knex('field_options')
      .where('context_id', contextId)
      .andWhereRaw('coalesce(parent_id, 0) = ?', [parentId ?? 0])
      .orderBy([{ column: 'position' }, { column: 'id' }])
      .select('id', 'value', 'position')) as { id: number; value: string; position: number }[];
    expect(new Set(rows.map((r) => Number(r.position))).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.value.toLowerCase())).size).toBe(rows.length);
    const listed = (await t.http.get(listUrl).set('Authorization', bob.auth).expect(200)).body as OptionJson[];
    expect(listed.map((o) => o.sequence)).toEqual(rows.map((_, i) => i));
    expect(listed.map((o) => o.id)).toEqual(rows.map((r) => r.id));
    return rows;
  }

  it('keeps every list consistent and the default valid', async () => {
    const f = await createField(t, { type: 'cascadingselect' });
    await grant(t, f.id, { user: bob.name });
    for (const syncer of syncers) await grant(t, f.id, { user: syncer.name });
    const p = paths(f.id, 'default');
    const parents = await addOptions(t, bob.auth, p.options, Array.from({ length: 8 }, (_, i) => `P${i}`));
    const kids = await addOptions(t, bob.auth, p.children(parents[0]!.id), Array.from({ length: 10 }, (_, i) => `k${i}`));
    const csv = (n: number) => ['path', ...parents.slice(0, 6).map((o) => o.optionvalue), `S${n}`, `P0/k${n}`, `P0/new${n}`, `P1/x${n % 2}`].join('\r\n');
    const ops: (() => Promise<{ status: number; body: unknown }>)[] = [];
    for (let i = 0; i < 60; i++) {
      const target = parents[i % parents.length]!;
      const kid = kids[i % kids.length]!;
      switch (i % 10) {
        case 0:
          ops.push(() => t.http.post(`${p.options}/batch`).set('Authorization', bob.auth).send({ create: [{ optionvalue: `B${i % 3}` }, { optionvalue: `b-${i}` }], update: [{ id: target.id, disabled: i % 20 === 0 }] }));
          break;
        case 1:
          ops.push(() => t.http.post(`${p.children(parents[0]!.id)}/batch`).set('Authorization', bob.auth).send({ create: [{ optionvalue: `kb${i % 4}` }], update: [{ id: kid.id, optionvalue: `K${i % 5}` }], delete: i % 30 === 1 ? [kids[9]!.id] : [] }));
          break;
        case 2:
          // A script's way: export, apply under its ETag, and on 412 (the tree changed meanwhile) try again.
          ops.push(async () => {
            const syncer = syncers[Math.floor(i / 10)]!;
            for (let attempt = 0; ; attempt++) {
              const exp = await t.http.get(`${p.options}/export?format=csv`).set('Authorization', syncer.auth);
              const res = await t.http.post(`${p.options}/sync?dryRun=false&allowDelete=${i % 20 === 2}`).set('Authorization', syncer.auth).set('Content-Type', 'text/csv').set('If-Match', exp.headers.etag as string).send(csv(i));
              if (res.status !== 412 || attempt >= 20) return res;
            }
          });
          break;
        case 3:
          ops.push(() => t.http.post(p.options).set('Authorization', bob.auth).send({ optionvalue: `B${i % 3}` }));
          break;
        case 4:
          ops.push(() => t.http.post(p.children(parents[1]!.id)).set('Authorization', bob.auth).send({ optionvalue: `x${i % 2}` }));
          break;
        case 5:
          ops.push(() => t.http.post(p.move(target.id)).set('Authorization', bob.auth).send({ position: 'First' }));
          break;
        case 6:
          ops.push(() => t.http.put(p.default).set('Authorization', bob.auth).send({ optionId: parents[0]!.id, childOptionId: kid.id }));
          break;
        case 7:
          ops.push(() => t.http.put(p.child(parents[0]!.id, kid.id)).set('Authorization', bob.auth).send({ optionvalue: `K${i % 5}` }));
          break;
        case 8:
          ops.push(() => t.http.delete(p.child(parents[0]!.id, kids[(i + 3) % kids.length]!.id)).set('Authorization', bob.auth));
          break;
        default:
          ops.push(() => t.http.post(p.childMove(parents[0]!.id, kid.id)).set('Authorization', bob.auth).send({ position: 'First' }));
      }
    }
    const results = await Promise.all(ops.map((op) => op()));
    const bad = results.filter((r) => ![200, 400, 404].includes(r.status));
    expect(bad, JSON.stringify(bad.slice(0, 3))).toEqual([]);
    const byKind = results.map((r, i) => `${i % 10}:${r.status}`).sort().join(" ");
    expect(results.filter((r) => r.status === 200).length, byKind).toBeGreaterThan(12);
    expect(results.filter((r, i) => i % 10 === 2 && r.status === 200).length, byKind).toBeGreaterThan(0);

    const top = await listInvariants(f.defaultContextId, null, p.options);
    for (const parent of top) await listInvariants(f.defaultContextId, parent.id, p.children(parent.id));
    const defaults = (await t.services.db.knex('field_default_options as d').join('field_options as o', 'o.id', 'd.option_id')
      .where('d.context_id', f.defaultContextId).orderBy('d.position').select('o.id', 'o.parent_id', 'o.context_id')) as { id: number; parent_id: number | null; context_id: number }[];
    if (defaults.length > 0) {
      expect(defaults[0]!.parent_id).toBeNull();
      if (defaults[1]) expect(defaults[1].parent_id).toBe(defaults[0]!.id);
    }
    // The tree still round-trips.
    const exp = await t.http.get(`${p.options}/export`).set('Authorization', bob.auth).expect(200);
    const same = await t.http.post(`${p.options}/sync`).set('Authorization', bob.auth).send(exp.body).expect(200);
    expect([same.body.create, same.body.rename, same.body.move, same.body.delete]).toEqual([[], [], [], []]);
  });
});
