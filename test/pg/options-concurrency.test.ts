import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../helpers/test-app.ts';
import { addOptions, createField, grant, paths, type OptionJson } from '../helpers/tracker-fixtures.ts';

// Real PostgreSQL (a pool of connections): concurrent writes to ONE sibling list must serialise on the
// list lock, so that values stay unique, positions stay distinct, listed sequences stay dense and no request ends in a 500.
describe.skipIf(!process.env.TEST_DATABASE_URL)('option lists under concurrent writes (PostgreSQL)', () => {
  const t = useTestApp();
  let bob: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob-race');
  });

  /** Stored positions are unique per list; the listed sequence is dense 0..n-1; values are unique without regard to case. */
  async function invariants(fieldId: number, contextId: number, parentId: number | null) {
    const rows = (await t.services.db.knex('field_options')
      .where('context_id', contextId)
      .andWhereRaw('coalesce(parent_id, 0) = ?', [parentId ?? 0])
      .orderBy([{ column: 'position' }, { column: 'id' }])
      .select('id', 'value', 'position')) as { id: number; value: string; position: number }[];
    expect(new Set(rows.map((r) => Number(r.position))).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.value.toLowerCase())).size).toBe(rows.length);
    const p = paths(fieldId, contextId);
    const listed = (await t.http.get(parentId === null ? p.options : p.children(parentId)).set('Authorization', bob.auth).expect(200)).body as OptionJson[];
    expect(listed.map((o) => o.sequence)).toEqual(rows.map((_, i) => i));
    expect(listed.map((o) => o.id)).toEqual(rows.map((r) => r.id));
    return rows;
  }

  async function race(listPath: string, opts: OptionJson[], move: (id: number) => string, item: (id: number) => string, sortPath: string) {
    const ops: (() => Promise<{ status: number; body: unknown }>)[] = [];
    for (let i = 0; i < 50; i++) {
      const target = opts[i % opts.length]!;
      const other = opts[(i * 7 + 3) % opts.length]!;
      switch (i % 6) {
        case 0: // the same value from several requests at once: exactly one may win
          ops.push(() => t.http.post(listPath).set('Authorization', bob.auth).send({ optionvalue: `dup-${i % 4}` }));
          break;
        case 1:
          ops.push(() => t.http.post(listPath).set('Authorization', bob.auth).send({ optionvalue: `new-${i}` }));
          break;
        case 2:
          ops.push(() => t.http.post(move(target.id)).set('Authorization', bob.auth).send({ after: other.id }));
          break;
        case 3:
          ops.push(() => t.http.post(move(target.id)).set('Authorization', bob.auth).send({ position: 'First' }));
          break;
        case 4:
          ops.push(() => t.http.delete(item(target.id)).set('Authorization', bob.auth));
          break;
        default:
          ops.push(() =>
            i % 12 === 5
              ? t.http.put(sortPath).set('Authorization', bob.auth).send({ locale: 'en-US' })
              : t.http.put(item(other.id)).set('Authorization', bob.auth).send({ optionvalue: `DUP-${i % 4}` }),
          );
      }
    }
    const results = await Promise.all(ops.map((op) => op()));
    const statuses = results.map((r) => r.status);
    // 400: duplicate value or a move after an option deleted meanwhile; 404: the option was deleted meanwhile.
    expect(statuses.every((s) => s === 200 || s === 400 || s === 404), JSON.stringify(results.filter((r) => ![200, 400, 404].includes(r.status)))).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(10);
    return results;
  }

  it('50 parallel creates, renames, moves, sorts and deletes on one top-level list keep it consistent', async () => {
    const f = await createField(t, { type: 'singleselect' });
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    const opts = await addOptions(t, bob.auth, p.options, Array.from({ length: 30 }, (_, i) => `seed-${i}`));
    await race(p.options, opts, p.move, p.option, p.sort);
    await invariants(f.id, f.defaultContextId, null);
  });

  it('the same holds on a child list while its parent list changes too', async () => {
    const f = await createField(t, { type: 'cascadingselect' });
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    const [parent, ...siblings] = await addOptions(t, bob.auth, p.options, ['P', 'Q', 'R', 'S']);
    const kids = await addOptions(t, bob.auth, p.children(parent!.id), Array.from({ length: 20 }, (_, i) => `kid-${i}`));
    await Promise.all([
      race(p.children(parent!.id), kids, (id) => p.childMove(parent!.id, id), (id) => p.child(parent!.id, id), p.childSort(parent!.id)),
      ...siblings.map((s) => t.http.post(p.move(s.id)).set('Authorization', bob.auth).send({ position: 'First' }).expect(200)),
    ]);
    await invariants(f.id, f.defaultContextId, parent!.id);
    await invariants(f.id, f.defaultContextId, null);
  });

  it('a parent deleted during child writes takes every child with it and nothing fails with 500', async () => {
    const f = await createField(t, { type: 'cascadingselect' });
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    const [parent] = await addOptions(t, bob.auth, p.options, ['Doomed']);
    const writes = Array.from({ length: 20 }, (_, i) => t.http.post(p.children(parent!.id)).set('Authorization', bob.auth).send({ optionvalue: `c${i}` }));
    const del = t.http.delete(p.option(parent!.id)).set('Authorization', bob.auth);
    const results = await Promise.all([...writes, del]);
    expect(results.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    expect(await t.services.db.knex('field_options').where('parent_id', parent!.id)).toEqual([]);
  });
});
