import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, grant, listValues, paths } from '../../helpers/tracker-fixtures.ts';

describe('field editor options: move and sort', () => {
  const t = useTestApp();
  let bob: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob-move');
  });

  async function list(values: string[], context: 'default' | 'other' = 'default') {
    const f = await createField(t, { type: 'singleselect' });
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, context === 'default' ? 'default' : (await createContext(t, f.id)).id);
    const opts = await addOptions(t, bob.auth, p.options, values);
    const id = (v: string) => opts.find((o) => o.optionvalue === v)!.id;
    return { p, id, fieldId: f.id, values: () => listValues(t, bob.auth, p.options) };
  }

  const move = (path: string, body: object) => t.http.post(path).set('Authorization', bob.auth).send(body);

  it('moves after a sibling (both directions), to First, after the last and after itself', async () => {
    for (const context of ['default', 'other'] as const) {
      const { p, id, values } = await list(['10', '20', '30', '40'], context);
      // The interface's example: 20 between 30 and 40.
      const moved = await move(p.move(id('20')), { after: String(id('30')) }).expect(200);
      expect(moved.body).toMatchObject({ optionvalue: '20', sequence: 2 });
      expect(await values()).toEqual(['10', '30', '20', '40']);
      await move(p.move(id('40')), { position: 'First' }).expect(200);
      expect(await values()).toEqual(['40', '10', '30', '20']);
      await move(p.move(id('30')), { after: id('40') }).expect(200);
      expect(await values()).toEqual(['40', '30', '10', '20']);
      await move(p.move(id('40')), { after: `/rest/trackercustomfieldeditorplugin/1/whatever/options/${id('20')}` }).expect(200);
      expect(await values()).toEqual(['30', '10', '20', '40']);
      const self = await move(p.move(id('10')), { after: id('10') }).expect(200);
      expect(self.body).toMatchObject({ optionvalue: '10', sequence: 1 });
      expect(await values()).toEqual(['30', '10', '20', '40']);
      // position wins over after.
      await move(p.move(id('20')), { after: id('40'), position: 'First' }).expect(200);
      expect(await values()).toEqual(['20', '30', '10', '40']);
      await move(p.move(id('20')), { after: `${id('30')}/${id('40')}` }).expect(200);
      expect(await values()).toEqual(['30', '10', '40', '20']);
    }
  });

  it('refuses moves after a non-sibling, bad bodies and unknown positions with 400', async () => {
    const a = await list(['a', 'b']);
    const other = await list(['c']);
    const r1 = await move(a.p.move(a.id('a')), { after: other.id('c') }).expect(400);
    expect(r1.body.errors[0].name).toBe('after');
    expect((await move(a.p.move(a.id('a')), { after: 'abc' }).expect(400)).body.errors[0].name).toBe('after');
    expect((await move(a.p.move(a.id('a')), {}).expect(400)).body.errors[0].name).toBe('after');
    expect((await move(a.p.move(a.id('a')), { position: 'Last' }).expect(400)).body.errors[0].name).toBe('position');
    expect((await move(a.p.move(a.id('a')), { after: 99999999 }).expect(400)).body.errors[0].name).toBe('after');
    expect(await a.values()).toEqual(['a', 'b']);
  });

  const sort = (path: string, body: object, method: 'put' | 'post' = 'put') => t.http[method](path).set('Authorization', bob.auth).send(body);

  it('sorts with umlauts and case under each strength, ascending and descending', async () => {
    // Values differing only in case cannot be siblings (uniqueness ignores case), so case shows as
    // "zebra before Zulu" (not code-point order) and strengths show on accents, ß, a ligature and NFC/NFD.
    // Values a strength finds equal keep their previous (insertion) order.
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    const values = ['zebra', 'STRASSE', 'Stra\u00dfe', 'B\u00e4r', 'bar', '\u00c4pfel', 'apfel', '\ufb01x', 'fix', nfc, nfd, 'Zulu'];
    const cases: [string | undefined, string[]][] = [
      ['PRIMARY', ['\u00c4pfel', 'apfel', 'B\u00e4r', 'bar', nfc, nfd, '\ufb01x', 'fix', 'STRASSE', 'Stra\u00dfe', 'zebra', 'Zulu']],
      ['SECONDARY', ['apfel', '\u00c4pfel', 'bar', 'B\u00e4r', nfc, nfd, '\ufb01x', 'fix', 'STRASSE', 'Stra\u00dfe', 'zebra', 'Zulu']],
      ['TERTIARY', ['apfel', '\u00c4pfel', 'bar', 'B\u00e4r', nfc, nfd, 'fix', '\ufb01x', 'STRASSE', 'Stra\u00dfe', 'zebra', 'Zulu']],
      ['IDENTICAL', ['apfel', '\u00c4pfel', 'bar', 'B\u00e4r', nfd, nfc, 'fix', '\ufb01x', 'STRASSE', 'Stra\u00dfe', 'zebra', 'Zulu']],
      // No strength: TERTIARY, as Java's Collator.
      [undefined, ['apfel', '\u00c4pfel', 'bar', 'B\u00e4r', nfc, nfd, 'fix', '\ufb01x', 'STRASSE', 'Stra\u00dfe', 'zebra', 'Zulu']],
    ];
    for (const [strength, expected] of cases) {
      const l = await list(values);
      const res = await sort(l.p.sort, { locale: 'de-DE', order: 'ASCENDING', ...(strength ? { strength } : {}) }).expect(200);
      expect(res.body).toMatchObject({ optionvalue: expected[0], sequence: 0 });
      expect(await l.values(), strength).toEqual(expected);
    }
    const d = await list(values);
    await sort(d.p.sort, { locale: 'de-DE', order: 'DESCENDING', strength: 'PRIMARY' }, 'post').expect(200);
    expect(await d.values()).toEqual(['Zulu', 'zebra', 'STRASSE', 'Stra\u00dfe', '\ufb01x', 'fix', nfc, nfd, 'B\u00e4r', 'bar', '\u00c4pfel', 'apfel']);
    await sort(d.p.sort, { locale: 'de-DE', order: 'descending', strength: 'tertiary' }, 'post').expect(200);
    expect(await d.values()).toEqual(['Zulu', 'zebra', 'Stra\u00dfe', 'STRASSE', '\ufb01x', 'fix', nfc, nfd, 'B\u00e4r', 'bar', '\u00c4pfel', 'apfel']);
  });

  it('sorts by the locale: Swedish puts ä after z', async () => {
    const l = await list(['ä', 'z', 'a'], 'other');
    await sort(l.p.sort, { locale: 'sv-SE', order: 'ASCENDING' }).expect(200);
    expect(await l.values()).toEqual(['a', 'z', 'ä']);
    await sort(l.p.sort, { locale: 'de-DE', order: 'ASCENDING' }).expect(200);
    expect(await l.values()).toEqual(['a', 'ä', 'z']);
  });

  it('accepts what older clients send and refuses bad sort bodies with 400 naming the property', async () => {
    const l = await list(['b', 'a']);
    await sort(l.p.sort, { order: 'ASCENDING', locale: 'en-EN', strength: 'PRIMARY', unknown: 1 }).expect(200);
    expect(await l.values()).toEqual(['a', 'b']);
    for (const [body, name] of [
      [{ order: 'ASCENDING' }, 'locale'],
      [{ locale: 'not a tag!' }, 'locale'],
      [{ locale: 'de-DE', order: 'UP' }, 'order'],
      [{ locale: 'de-DE', strength: 'STRONG' }, 'strength'],
      [{ locale: 5 }, 'locale'],
    ] as const) {
      const res = await sort(l.p.sort, body).expect(400);
      expect(res.body.errors.map((e: { name: string }) => e.name)).toContain(name);
    }
  });

  it('lists densely even when stored positions collide, and sort spreads them out again', async () => {
    const l = await list(['c', 'b', 'a']);
    const ids = [l.id('a'), l.id('b'), l.id('c')];
    // Written directly: no endpoint stores colliding positions; this is the corrupted order the list and sort must repair.
    await t.services.db.knex('field_options').whereIn('id', ids).update({ position: 7 });
    expect(await l.values()).toEqual(['c', 'b', 'a']); // ties go by id: creation order
    await sort(l.p.sort, { locale: 'en-US' }).expect(200);
    expect(await l.values()).toEqual(['a', 'b', 'c']);
    const positions = (await t.services.db.knex('field_options').whereIn('id', ids).pluck('position')) as number[];
    expect(new Set(positions.map(Number)).size).toBe(3);
  });

  it('keeps the order through many moves into the same gap (renumbering when the gap is used up)', async () => {
    const l = await list(['first', 'x', 'last']);
    // Moving alternately right after "first" halves the same gap each time: 2^20 lasts about 20 moves.
    const movers = Array.from({ length: 30 }, (_, i) => `m${i}`);
    await addOptions(t, bob.auth, l.p.options, movers);
    const all = (await t.http.get(l.p.options).set('Authorization', bob.auth).expect(200)).body as { id: number; optionvalue: string }[];
    const idOf = (v: string) => all.find((o) => o.optionvalue === v)!.id;
    for (const m of movers) await move(l.p.move(idOf(m)), { after: idOf('first') }).expect(200);
    expect(await l.values()).toEqual(['first', ...[...movers].reverse(), 'x', 'last']);
    // Each entry names the ranks before and after, also for the moves that renumbered the list first: m_i was
    // behind first, the i movers before it, x and last (rank i + 3), and goes right behind first (rank 1).
    const entries = (await t.services.db.knex('event_log').where({ field_id: l.fieldId, kind: 'option.moved' }).orderBy('id')) as {
      before: { sequence: number };
      after: { sequence: number };
    }[];
    expect(entries.map((e) => [e.before.sequence, e.after.sequence])).toEqual(movers.map((_, i) => [i + 3, 1]));
  });

  it('names the rank a move started from also when it had to renumber the list first', async () => {
    const l = await list(['first', 'a', 'b']);
    // Positions with no integer between first and a: moving b behind first renumbers the list, which moves b too.
    const knex = t.services.db.knex;
    for (const [value, position] of [['first', 0], ['a', 1], ['b', 2]] as const) await knex('field_options').where('id', l.id(value)).update({ position });
    const moved = await move(l.p.move(l.id('b')), { after: l.id('first') }).expect(200);
    expect(moved.body).toMatchObject({ optionvalue: 'b', sequence: 1 });
    expect(await l.values()).toEqual(['first', 'b', 'a']);
    const [entry] = (await knex('event_log').where({ field_id: l.fieldId, kind: 'option.moved' })) as { before: { sequence: number }; after: { sequence: number } }[];
    expect([entry!.before.sequence, entry!.after.sequence]).toEqual([2, 1]);
  });

  it('sorts an empty list', async () => {
    const l = await list([]);
    expect((await sort(l.p.sort, { locale: 'en-US' }).expect(200)).body).toEqual({});
  });
});
