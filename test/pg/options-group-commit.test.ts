import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Knex } from 'knex';
import type { Test } from 'supertest';
import { uniq, useTestApp, type TestUser } from '../helpers/test-app.ts';
import {
  FE,
  addOptions,
  createField,
  grant,
  listValues,
  paths,
  type FieldType,
  type OptionJson,
  type TestField,
} from '../helpers/tracker-fixtures.ts';
import { WriteGroups } from '../../src/platform/db/write-groups.ts';

const NO_GRANT = {
  statusCode: 403,
  subCode: 403001,
  message: 'FieldPermission Denied - you do not have sufficient rights for this operation.',
};

/** The documented duplicate answer (options.errors.ts, `duplicateValue`), naming the option that has the value. */
const duplicateOf = (value: string, existingId: number) => ({
  statusCode: 400,
  subCode: 400000,
  message: 'validation errors',
  errors: [
    {
      name: 'optionvalue',
      message: 'This option value does already exist. Option values need to be unique.',
      exceptionName: 'DuplicateOptionValueException',
      value: { optionvalue: value, existingOptionId: existingId },
    },
    {
      name: 'existingOptionId',
      message: `The option with the id ${existingId} already has this value.`,
      value: { id: existingId },
    },
  ],
});

type Answer = { status: number; body: unknown };

// Real PostgreSQL (a pool of connections): creates and updates of one option list that overlap share one
// transaction (option-writer.ts, WriteGroups). Grouping is made deterministic here: a blocker holds the list's
// lock row, request A waits for it in the database (its group is running), the requests B1..Bn come meanwhile and
// wait in memory (seen arriving through WriteGroups.submit, in the order they are started), the blocker commits:
// A commits alone, then B1..Bn run as one group. Each write must still be answered as it would be alone.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'overlapping option writes of one list share a transaction (PostgreSQL)',
  () => {
    const t = useTestApp();
    const knex = (): Knex => t.services.db.knex;
    /** Every submission to a WriteGroups (called through: it only lets the test see the writes arrive). */
    let submits: MockInstance<WriteGroups<unknown>['submit']>;

    beforeAll(() => {
      submits = vi.spyOn(WriteGroups.prototype, 'submit');
    });
    afterAll(() => {
      submits.mockRestore();
    });

    /** A field with one editor (the seeder, also the writer of A) whose list has its lock row (written once). */
    async function listWith(
      values: string[],
      type: FieldType = 'singleselect',
    ): Promise<{ field: TestField; seeder: TestUser; seeded: OptionJson[] }> {
      const field = await createField(t, { type });
      const seeder = await t.createUser(uniq('seeder-'));
      await grant(t, field.id, { user: seeder.name });
      const seeded = await addOptions(t, seeder.auth, paths(field.id, 'default').options, values);
      return { field, seeder, seeded };
    }

    async function editors(field: TestField, n: number): Promise<TestUser[]> {
      const users: TestUser[] = [];
      for (let i = 0; i < n; i++) {
        const user = await t.createUser(uniq('editor-'));
        await grant(t, field.id, { user: user.name });
        users.push(user);
      }
      return users;
    }

    /** Holds the lock row of the field's top-level list in a transaction of its own, as a concurrent writer would. */
    async function holdList(field: TestField): Promise<{ trx: Knex.Transaction; pid: number }> {
      const trx = await knex().transaction();
      const pid = Number(
        ((await trx.raw('select pg_backend_pid() as pid')) as { rows: { pid: number }[] }).rows[0]!.pid,
      );
      const held = (await trx.raw(
        'update field_option_lists set version = version where context_id = ? and parent_key = 0',
        [field.defaultContextId],
      )) as {
        rowCount: number;
      };
      expect(held.rowCount).toBe(1);
      return { trx, pid };
    }

    /** Resolves once some backend of this database waits for a lock that the backend `pid` holds. */
    async function waitBlockedBy(pid: number) {
      for (const until = Date.now() + 10_000; Date.now() < until;) {
        const found = (await knex().raw(
          `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and ? = any(pg_blocking_pids(pid))`,
          [pid],
        )) as { rows: { n: number }[] };
        if (found.rows[0]!.n > 0) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('no request came to wait for the lock');
    }

    /** How many writes of the field's lists reached a WriteGroups (its key starts with the field id). */
    const submitted = (field: TestField) =>
      submits.mock.calls.filter(([key]) => key.startsWith(`${field.id}/`)).length;
    async function waitSubmitted(field: TestField, n: number) {
      for (const until = Date.now() + 10_000; Date.now() < until;) {
        if (submitted(field) >= n) return;
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(
        `${n} writes of field ${field.id} were expected to reach the write groups, ${submitted(field)} did`,
      );
    }

    /** Starts the request now (supertest sends on `then`) and answers its settled response. */
    const start = (req: Test): Promise<Answer> =>
      req.then((r) => ({ status: r.status, body: r.body as unknown }));

    /**
     * A waits for the blocker's lock in the database; B1..Bn are started one after the other, each once the one
     * before reached the write groups (so they queue behind A in this order); `meanwhile` runs while they all wait;
     * then the blocker commits. Answers A's and the Bs' responses.
     */
    async function grouped(
      field: TestField,
      a: () => Test,
      bs: (() => Test)[],
      meanwhile?: () => Promise<void>,
    ) {
      const base = submitted(field);
      const b = await holdList(field);
      let pendingA: Promise<Answer> | undefined;
      const pendingB: Promise<Answer>[] = [];
      try {
        pendingA = start(a());
        await waitSubmitted(field, base + 1);
        await waitBlockedBy(b.pid);
        for (const [i, req] of bs.entries()) {
          pendingB.push(start(req()));
          await waitSubmitted(field, base + 2 + i);
        }
        await meanwhile?.();
      } finally {
        await b.trx.commit();
      }
      return { a: await pendingA, b: await Promise.all(pendingB) };
    }

    const create = (field: TestField, user: TestUser, optionvalue: string) => () =>
      t.http.post(paths(field.id, 'default').options).set('Authorization', user.auth).send({ optionvalue });
    const rename = (field: TestField, user: TestUser, id: number, optionvalue: string) => () =>
      t.http.put(paths(field.id, 'default').option(id)).set('Authorization', user.auth).send({ optionvalue });

    /** The field's event-log entries in the order written; `at` is the transaction's start (now()) to the microsecond. */
    const entries = async (field: TestField) =>
      (await logged(field)).map(({ before: _before, after: _after, ...entry }) => entry);

    /** The values of the field's top-level list as stored, in order. */
    const values = async (field: TestField) =>
      (await knex()('field_options')
        .where('context_id', field.defaultContextId)
        .whereNull('parent_id')
        .orderBy([{ column: 'position' }, { column: 'id' }])
        .pluck('value')) as string[];

    it('creates by several users run as one transaction: each right decided on its own, each answered as alone', async () => {
      const { field, seeder } = await listWith([uniq('seed-')]);
      const [e1, e2, e3, e4] = await editors(field, 4);
      const stranger = await t.createUser(uniq('stranger-')); // no grant on this field
      const aValue = uniq('a-');
      const bValues = [uniq('b1-'), uniq('b2-'), uniq('b3-'), uniq('b4-')];
      const strangerValue = uniq('x-');
      const res = await grouped(field, create(field, seeder, aValue), [
        create(field, e1!, bValues[0]!),
        create(field, e2!, bValues[1]!),
        create(field, stranger, strangerValue),
        create(field, e3!, bValues[2]!),
        create(field, e4!, bValues[3]!),
      ]);

      expect(res.a.status, JSON.stringify(res.a.body)).toBe(200);
      expect(res.a.body).toMatchObject({ optionvalue: aValue, sequence: 1 });
      const [b1, b2, refused, b3, b4] = res.b;
      expect(refused!.status).toBe(403);
      expect(refused!.body).toEqual(NO_GRANT);
      const created = [b1!, b2!, b3!, b4!];
      for (const r of created) expect(r.status, JSON.stringify(r.body)).toBe(200);
      const bodies = created.map((r) => r.body as OptionJson);
      // In arrival order, at the end of the list, after the seed and A; the refusal took no place.
      expect(bodies).toEqual(
        bValues.map((optionvalue, i) => ({
          optionvalue,
          id: expect.any(Number),
          sequence: 2 + i,
          disabled: false,
        })),
      );
      expect(new Set(bodies.map((o) => o.id)).size).toBe(4);

      const listed = await listValues(t, seeder.auth, paths(field.id, 'default').options);
      expect(listed.slice(1)).toEqual([aValue, ...bValues]);
      expect(await values(field)).toEqual(listed);

      const log = await entries(field);
      expect(log.map(({ actor, kind, option_id }) => ({ actor, kind, option_id }))).toEqual([
        { actor: seeder.name, kind: 'option.created', option_id: expect.any(Number) },
        { actor: seeder.name, kind: 'option.created', option_id: (res.a.body as OptionJson).id },
        ...[e1!, e2!, e3!, e4!].map((u, i) => ({
          actor: u.name,
          kind: 'option.created',
          option_id: bodies[i]!.id,
        })),
      ]);
      // The proof that B1..B4 were grouped: one transaction, so one now() for all their entries; A's was another.
      const groupTimes = new Set(log.slice(2).map((e) => e.at));
      expect(groupTimes.size).toBe(1);
      expect(groupTimes.has(log[1]!.at)).toBe(false);
    });

    /**
     * One create of the group is refused by the unique index: the group rolls back and each of its writes runs
     * alone, so the duplicate gets the documented 400 and the others are created once each.
     */
    async function groupWithDuplicate(
      write: (
        field: TestField,
        editor: TestUser,
        seeded: OptionJson,
      ) => { values: string[]; dupIndex: number; dupOf: (ids: number[]) => number },
    ) {
      const { field, seeder, seeded } = await listWith([uniq('Red-')]);
      const [editor] = await editors(field, 1);
      const { values: bValues, dupIndex, dupOf } = write(field, editor!, seeded[0]!);
      const aValue = uniq('a-');
      const res = await grouped(
        field,
        create(field, seeder, aValue),
        bValues.map((v) => create(field, editor!, v)),
      );
      expect(res.a.status, JSON.stringify(res.a.body)).toBe(200);
      const ok = res.b.filter((_, i) => i !== dupIndex);
      for (const r of ok) expect(r.status, JSON.stringify(r.body)).toBe(200);
      const okBodies = ok.map((r) => r.body as OptionJson);
      const okValues = bValues.filter((_, i) => i !== dupIndex);
      expect(okBodies.map((o) => o.optionvalue)).toEqual(okValues);
      expect(okBodies.map((o) => o.sequence)).toEqual(okValues.map((_, i) => 2 + i));

      const dup = res.b[dupIndex]!;
      expect(dup.status, JSON.stringify(dup.body)).toBe(400);
      expect(dup.body).toEqual(duplicateOf(bValues[dupIndex]!.trim(), dupOf(okBodies.map((o) => o.id))));

      // Nothing else was written: the list is the seed, A and the successful creates, each value once.
      const stored = await values(field);
      expect(stored).toEqual([seeded[0]!.optionvalue, aValue, ...okValues]);
      expect(new Set(stored.map((v) => v.toLowerCase())).size).toBe(stored.length);
      const log = await entries(field);
      expect(log.map((e) => [e.kind, e.option_id])).toEqual([
        ['option.created', seeded[0]!.id],
        ['option.created', (res.a.body as OptionJson).id],
        ...okBodies.map((o) => ['option.created', o.id]),
      ]);
    }

    it('a create duplicating an existing value (case aside) gets the duplicate 400; the rest of its group is created', async () => {
      await groupWithDuplicate((_field, _editor, seeded) => ({
        values: [uniq('n1-'), ` ${seeded.optionvalue.toUpperCase()} `, uniq('n3-')],
        dupIndex: 1,
        dupOf: () => seeded.id,
      }));
    });

    it('a create duplicating another create of its group, as the group last statement, gets the duplicate 400; the others are created', async () => {
      // The last write of a group goes out with the COMMIT behind it (commit-behind.ts): that statement fails here.
      const blue = uniq('Blue-');
      await groupWithDuplicate(() => ({
        values: [blue, uniq('green-'), blue.toLowerCase()],
        dupIndex: 2,
        dupOf: ([first]) => first!,
      }));
    });

    /**
     * A create by the seeder (A), then renames and creates by two editors grouped behind it; with `warm`, each
     * editor first creates one option, so that its writes are predicted (option-writer.ts). Checks the answers,
     * the list, the entries (one transaction for the group) and answers how many groups were predicted.
     */
    async function renamesAndCreatesGrouped(warm: boolean): Promise<number> {
      const { field, seeder, seeded } = await listWith([uniq('s0-'), uniq('s1-'), uniq('s2-')]);
      const [e1, e2] = await editors(field, 2);
      const warmed = warm ? [uniq('w1-'), uniq('w2-')] : [];
      for (const [i, value] of warmed.entries()) await addOptions(t, [e1!, e2!][i]!.auth, paths(field.id, 'default').options, [value]);
      const predictedBefore = t.services.fieldeditor.options.predictedGroups;
      const aValue = uniq('a-');
      const [r0, c1, r2, c2] = [uniq('r0-'), uniq('c1-'), uniq('r2-'), uniq('c2-')];
      const res = await grouped(field, create(field, seeder, aValue), [
        rename(field, e1!, seeded[0]!.id, r0),
        create(field, e2!, c1),
        rename(field, e2!, seeded[2]!.id, r2),
        create(field, e1!, c2),
      ]);
      expect(res.a.status, JSON.stringify(res.a.body)).toBe(200);
      for (const r of res.b) expect(r.status, JSON.stringify(r.body)).toBe(200);
      const predicted = t.services.fieldeditor.options.predictedGroups - predictedBefore;
      const [b0, b1, b2, b3] = res.b.map((r) => r.body as OptionJson);
      const end = 4 + warmed.length; // the three seeds, the warm-ups and A come first
      expect(b0).toEqual({ optionvalue: r0, id: seeded[0]!.id, sequence: 0, disabled: false });
      expect(b1).toEqual({ optionvalue: c1, id: expect.any(Number), sequence: end, disabled: false });
      expect(b2).toEqual({ optionvalue: r2, id: seeded[2]!.id, sequence: 2, disabled: false });
      expect(b3).toEqual({ optionvalue: c2, id: expect.any(Number), sequence: end + 1, disabled: false });
      expect(await listValues(t, seeder.auth, paths(field.id, 'default').options)).toEqual([
        r0,
        seeded[1]!.optionvalue,
        r2,
        ...warmed,
        aValue,
        c1,
        c2,
      ]);
      const log = (await entries(field)).slice(end);
      expect(log.map(({ actor, kind, option_id }) => ({ actor, kind, option_id }))).toEqual([
        { actor: e1!.name, kind: 'option.renamed', option_id: seeded[0]!.id },
        { actor: e2!.name, kind: 'option.created', option_id: b1!.id },
        { actor: e2!.name, kind: 'option.renamed', option_id: seeded[2]!.id },
        { actor: e1!.name, kind: 'option.created', option_id: b3!.id },
      ]);
      expect(new Set(log.map((e) => e.at)).size).toBe(1);
      return predicted;
    }

    it('renames and creates in one group are each answered as alone and logged with their own kinds', async () => {
      await renamesAndCreatesGrouped(false);
    });

    it('the same group on predicted decisions (each editor wrote before): one flight for the lock and the guards, each write answered and logged as alone', async () => {
      // A alone, then the Bs as one group: both the predicted way.
      expect(await renamesAndCreatesGrouped(true)).toBe(2);
    });

    it('a create queued behind a running group answers 403001 when its grant was revoked meanwhile, and writes nothing', async () => {
      const { field, seeder } = await listWith([uniq('seed-')]);
      const group = uniq('keepers-');
      const [revoked, kept] = await editors(field, 2);
      const member = await t.createUser(uniq('member-'), { groups: [group] });
      await grant(t, field.id, { group });
      const [v1, v2, v3] = [uniq('late-'), uniq('kept-'), uniq('late-')];
      const before = await values(field);
      const res = await grouped(
        field,
        create(field, seeder, uniq('a-')),
        // The first of the group has its right decided in the lock's flight, the third after it (list-write.ts).
        [create(field, revoked!, v1), create(field, kept!, v2), create(field, member, v3)],
        async () => {
          const r1 = await t.http
            .patch(`${FE}/admin/customfields/${field.id}`)
            .set('Authorization', t.adminAuth)
            .send({ user: revoked!.name, action: 'REVOKE', type: 'GLOBAL' });
          expect(r1.status, JSON.stringify(r1.body)).toBe(200);
          const r2 = await t.http
            .delete(`/rest/api/2/group/user?groupname=${group}&username=${member.name}`)
            .set('Authorization', t.adminAuth);
          expect(r2.status, JSON.stringify(r2.body)).toBe(200);
        },
      );
      expect(res.a.status, JSON.stringify(res.a.body)).toBe(200);
      const [first, second, third] = res.b;
      expect(first!.status).toBe(403);
      expect(first!.body).toEqual(NO_GRANT);
      expect(third!.status).toBe(403);
      expect(third!.body).toEqual(NO_GRANT);
      expect(second!.status, JSON.stringify(second!.body)).toBe(200);
      expect(second!.body).toMatchObject({ optionvalue: v2 });
      expect(await values(field)).toEqual([...before, (res.a.body as OptionJson).optionvalue, v2]);
      const log = await entries(field);
      expect(log.map((e) => e.actor)).toEqual([seeder.name, seeder.name, kept!.name]);
    });

    /** Where a move puts its option: first, or right after the option with this id. */
    type MoveTo = 'First' | number;
    type Move = { user: TestUser; id: number; to: MoveTo };
    const move =
      (field: TestField, { user, id, to }: Move) =>
      () =>
        t.http
          .post(paths(field.id, 'default').move(id))
          .set('Authorization', user.auth)
          .send(to === 'First' ? { position: 'First' } : { after: to });

    /**
     * The moves applied one after the other to `order` (ids), as the interface defines them (after itself:
     * nothing changes): each move's rank before and after it, and the final order.
     */
    function applyMoves(order: number[], moves: { id: number; to: MoveTo }[]) {
      const current = [...order];
      const steps = moves.map(({ id, to }) => {
        const before = current.indexOf(id);
        if (before < 0) throw new Error(`option ${id} is not in the list`);
        if (to === id) return { before, after: before };
        current.splice(before, 1);
        const at = to === 'First' ? 0 : current.indexOf(to) + 1;
        if (at === 0 && to !== 'First') throw new Error(`option ${to} is not in the list`);
        current.splice(at, 0, id);
        return { before, after: at };
      });
      return { steps, order: current };
    }

    /** The field's option entries in the order written, with their before/after members and transaction time. */
    const logged = async (field: TestField) =>
      (await knex()('event_log')
        .where('field_id', field.id)
        .andWhere('kind', 'like', 'option.%')
        .orderBy('id')
        .select(
          'actor',
          'kind',
          'before',
          'after',
          knex().raw("(target->>'id')::int as option_id"),
          knex().raw('created_at::text as at'),
        )) as {
        actor: string;
        kind: string;
        before: unknown;
        after: unknown;
        option_id: number;
        at: string;
      }[];
    const withoutTime = ({
      actor,
      kind,
      before,
      after,
      option_id,
    }: Awaited<ReturnType<typeof logged>>[number]) => ({
      actor,
      kind,
      option_id,
      before,
      after,
    });

    /** The entry a move writes: the option as it was (rank `before`) and as it is (rank `after`). */
    const movedEntry = (user: TestUser, o: OptionJson, before: number, after: number) => {
      const at = (sequence: number) => ({
        optionvalue: o.optionvalue,
        id: o.id,
        sequence,
        disabled: false,
        parentId: null,
      });
      return {
        actor: user.name,
        kind: 'option.moved',
        option_id: o.id,
        before: at(before),
        after: at(after),
      };
    };
    /** The entry a create writes. */
    const createdEntry = (user: TestUser, o: OptionJson) => ({
      actor: user.name,
      kind: 'option.created',
      option_id: o.id,
      before: null,
      after: { ...o, parentId: null },
    });

    /**
     * A list of the given size whose seeder then moves its last option first (A, which holds the group open);
     * the moves of `bs` (given the seeded options and two editors) form the group behind it. Checks every answer,
     * the final order and the event log against the moves applied one by one in arrival order, and that the Bs
     * ran as one group.
     */
    async function movesBehindAMove(size: number, bs: (o: OptionJson[], editors: TestUser[]) => Move[]) {
      const { field, seeder, seeded } = await listWith(
        Array.from({ length: size }, (_, i) => uniq(`s${i}-`)),
      );
      const users = await editors(field, 2);
      const byId = new Map(seeded.map((o) => [o.id, o]));
      const a: Move = { user: seeder, id: seeded[size - 1]!.id, to: 'First' };
      const afterA = applyMoves(
        seeded.map((o) => o.id),
        [a],
      ).order;
      const moves = bs(seeded, users);
      const expected = applyMoves(afterA, moves);
      const logBefore = (await logged(field)).length;
      const res = await grouped(
        field,
        move(field, a),
        moves.map((m) => move(field, m)),
      );
      expect(res.a.status, JSON.stringify(res.a.body)).toBe(200);
      expect(res.a.body).toEqual({ ...byId.get(a.id), sequence: 0 });
      // Every move answers 200 with the option as it is after it, at the rank it has in arrival order.
      for (const r of res.b) expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(res.b.map((r) => r.body)).toEqual(
        moves.map((m, i) => ({ ...byId.get(m.id), sequence: expected.steps[i]!.after })),
      );
      // The list is the moves applied in arrival order, as listed and as stored.
      const finalValues = expected.order.map((id) => byId.get(id)!.optionvalue);
      expect(await listValues(t, seeder.auth, paths(field.id, 'default').options)).toEqual(finalValues);
      expect(await values(field)).toEqual(finalValues);
      // One entry per move (A's, then the Bs' in arrival order), with the ranks before and after it.
      const log = (await logged(field)).slice(logBefore);
      expect(log.map(withoutTime)).toEqual([
        movedEntry(seeder, byId.get(a.id)!, size - 1, 0),
        ...moves.map((m, i) =>
          movedEntry(m.user, byId.get(m.id)!, expected.steps[i]!.before, expected.steps[i]!.after),
        ),
      ]);
      // Grouped: the Bs' entries have one transaction time, A's another.
      const groupTimes = new Set(log.slice(1).map((e) => e.at));
      expect(groupTimes.size).toBe(1);
      expect(groupTimes.has(log[0]!.at)).toBe(false);
    }

    it('moves of different options by two users in one group are each answered with the rank they have in arrival order', async () => {
      // After A: s5 s0 s1 s2 s3 s4.
      await movesBehindAMove(6, ([s0, s1, s2, s3, s4, s5], [e1, e2]) => [
        { user: e1!, id: s3!.id, to: 'First' },
        { user: e2!, id: s0!.id, to: s4!.id }, // after the last
        { user: e1!, id: s4!.id, to: s3!.id }, // after the option the group's first move put first
        { user: e2!, id: s1!.id, to: s0!.id }, // after the option the group's second move put last
        { user: e1!, id: s5!.id, to: 'First' }, // A's option, first again
        { user: e2!, id: s2!.id, to: s3!.id },
        { user: e1!, id: s0!.id, to: 'First' }, // an option the group moved before
      ]);
    });

    it('a move after itself in a group of moves changes nothing and answers the rank the moves before it gave', async () => {
      // After A: s4 s0 s1 s2 s3.
      await movesBehindAMove(5, ([s0, s1, s2, s3, s4], [e1, e2]) => [
        { user: e1!, id: s3!.id, to: 'First' },
        { user: e2!, id: s1!.id, to: s1!.id }, // rank 3 now (2 before the group)
        { user: e1!, id: s4!.id, to: s3!.id },
        { user: e2!, id: s0!.id, to: 'First' },
        { user: e1!, id: s2!.id, to: s2!.id }, // the group's last write: its entry goes out with the commit behind it
      ]);
    });

    /**
     * A group of moves and creates (behind a create, A). With `refusal`, one more move, at `index`, names an
     * `after` that is no sibling: an error of the operation itself, so the group rolls back and its writes run
     * alone; that move gets the 400 it gets alone and the others succeed once each, in arrival order. Without
     * it, the group commits as one transaction.
     */
    async function movesAndCreates(refusal?: {
      index: number;
      notSibling: (field: TestField, seeder: TestUser, seeded: OptionJson[]) => Promise<number>;
      type?: FieldType;
    }) {
      const { field, seeder, seeded } = await listWith(
        [uniq('s0-'), uniq('s1-'), uniq('s2-'), uniq('s3-')],
        refusal?.type,
      );
      const [e1, e2] = await editors(field, 2);
      const [s0, s1, s2, s3] = seeded as [OptionJson, OptionJson, OptionJson, OptionJson];
      // The refused move: s1 after an option that is no sibling of it.
      const refused: Move | undefined = refusal && {
        user: e1!,
        id: s1.id,
        to: await refusal.notSibling(field, seeder, seeded),
      };
      const logBefore = (await logged(field)).length;
      const aValue = uniq('a-');
      const [c1, c2] = [uniq('c1-'), uniq('c2-')];
      type Write = { create: string; user: TestUser } | Move;
      const writes: Write[] = [
        { user: e1!, id: s2.id, to: 'First' },
        { user: e2!, create: c1 },
        { user: e2!, id: s3.id, to: s2.id }, // after the option the group's first move put first
        { user: e1!, create: c2 },
        { user: e2!, id: s0.id, to: 'First' },
      ];
      if (refusal && refused) writes.splice(refusal.index, 0, refused);
      const res = await grouped(
        field,
        create(field, seeder, aValue),
        writes.map((w) => ('create' in w ? create(field, w.user, w.create) : move(field, w))),
      );
      expect(res.a.status, JSON.stringify(res.a.body)).toBe(200);
      const aOption = res.a.body as OptionJson;
      expect(aOption).toEqual({ optionvalue: aValue, id: expect.any(Number), sequence: 4, disabled: false });

      // The refusal: exactly the answer of move-sort.test.ts ("refuses moves after a non-sibling ...").
      const notSiblingAnswer = (m: Move) => ({
        statusCode: 400,
        subCode: 400000,
        message: 'validation errors',
        errors: [
          {
            name: 'after',
            message: `The option ${m.to} is not a sibling of the option ${m.id}; an option moves only within its own list.`,
            value: { id: m.to },
          },
        ],
      });
      if (refusal && refused) {
        const r = res.b[refusal.index]!;
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body).toEqual(notSiblingAnswer(refused));
      }

      // The others, in arrival order, as alone: a create appends, a move goes where the order of that moment says.
      const byId = new Map<number, OptionJson>([...seeded, aOption].map((o) => [o.id, o]));
      let order = [s0.id, s1.id, s2.id, s3.id, aOption.id];
      const expectedLog: unknown[] = [];
      for (const [i, w] of writes.entries()) {
        if (w === refused) continue;
        const r = res.b[i]!;
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        if ('create' in w) {
          const o = r.body as OptionJson;
          expect(o).toEqual({
            optionvalue: w.create,
            id: expect.any(Number),
            sequence: order.length,
            disabled: false,
          });
          expect(byId.has(o.id)).toBe(false);
          byId.set(o.id, o);
          order = [...order, o.id];
          expectedLog.push(createdEntry(w.user, o));
        } else {
          const { steps, order: next } = applyMoves(order, [w]);
          expect(r.body).toEqual({ ...byId.get(w.id), sequence: steps[0]!.after });
          order = next;
          expectedLog.push(movedEntry(w.user, byId.get(w.id)!, steps[0]!.before, steps[0]!.after));
        }
      }
      // s0 s2 s3 s1 a c1 c2 (a refused move left s1 where it was).
      const createdIds = res.b.filter((_, i) => 'create' in writes[i]!).map((r) => (r.body as OptionJson).id);
      expect(order).toEqual([s0.id, s2.id, s3.id, s1.id, aOption.id, ...createdIds]);
      const finalValues = order.map((id) => byId.get(id)!.optionvalue);
      expect(await listValues(t, seeder.auth, paths(field.id, 'default').options)).toEqual(finalValues);
      expect(await values(field)).toEqual(finalValues);
      // Exactly one entry per successful write, in arrival order; none for a refused move (the rolled-back
      // group's entries are gone).
      const log = (await logged(field)).slice(logBefore);
      expect(log.map(withoutTime)).toEqual([createdEntry(seeder, aOption), ...expectedLog]);
      expect(log.filter((e) => e.option_id === s1.id)).toEqual([]);
      if (!refusal || !refused) {
        // Grouped: the Bs' entries have one transaction time, A's another.
        const groupTimes = new Set(log.slice(1).map((e) => e.at));
        expect(groupTimes.size).toBe(1);
        expect(groupTimes.has(log[0]!.at)).toBe(false);
        return;
      }
      // (With a refusal they are not one transaction's: the group ran again write by write.) Sent alone, the
      // same move is answered the same, and changes nothing.
      expect(await start(move(field, refused)())).toEqual({ status: 400, body: notSiblingAnswer(refused) });
      expect(await values(field)).toEqual(finalValues);
      expect(await logged(field)).toHaveLength(logBefore + 1 + expectedLog.length);
    }

    it('moves and creates in one group are each answered as alone and commit as one transaction', async () => {
      await movesAndCreates();
    });

    it('a move after an option of another field in a group of moves and creates gets the 400 it gets alone; the others succeed', async () => {
      await movesAndCreates({
        index: 2,
        notSibling: async () => (await listWith([uniq('other-')])).seeded[0]!.id,
      });
    });

    it('a move after an option that does not exist, as the last write of a group, gets the 400 it gets alone; the others succeed', async () => {
      await movesAndCreates({ index: 5, notSibling: () => Promise.resolve(99999999) });
    });

    it('a move after a child option of another parent, first in a group of moves and creates, gets the 400 it gets alone; the others succeed', async () => {
      await movesAndCreates({
        index: 0,
        type: 'cascadingselect',
        notSibling: async (field, seeder, seeded) => {
          const children = paths(field.id, 'default').children(seeded[3]!.id);
          const [child] = await addOptions(t, seeder.auth, children, [uniq('child-')]);
          return child!.id;
        },
      });
    });
  },
);
