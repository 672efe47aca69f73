import type { Knex } from 'knex';
import type { Announcement, ChangeFeed } from '../../platform/events/change-feed.ts';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { WriteGroups } from '../../platform/db/write-groups.ts';
import { isPipelined, transactionWithCommitBehind, type Committed } from '../../platform/db/commit-behind.ts';
import type { StatementSender } from '../../platform/db/send-now.ts';
import { FIELD_OPTIONS_TOPIC } from '../fieldeditor.topics.ts';
import { actorOf, type Actor } from '../access/actor.ts';
import type { FieldAccess } from '../access/access.service.ts';
import type { EditableScope } from '../access/scope.ts';
import type { EventLog, Send } from '../maintenance/event-log.ts';
import type { EntryFill, EventEntry } from '../maintenance/event-log.repository.ts';
import { decideUnderLock, lockListDeciding } from './list-write.ts';
import { checkFieldType, listOf, loadParent, type ListPath, type OptionScope } from './option-scope.ts';
import { optionTarget, type OptionChange, type OptionJson, type OptionRow } from './options.model.ts';
import * as repo from './options.repository.ts';
import { WritePredictions } from './write-predictions.ts';
import { duplicateValue } from './options.errors.ts';

/**
 * A write once its right is decided: the value it stores (for the duplicate answer), a rule decided inside it,
 * and the operation. `write` asks for it with the decided scope, so a bad body is a 400 only for a caller
 * that may edit the list (a caller without a grant gets 403001 whatever it sent, as the contract orders them).
 */
export interface WritePlan<T> {
  /** The option value written, when the write sets one: a unique-index refusal is then answered as a duplicate. */
  value?: string;
  /** The option being renamed (a sibling with the same value other than itself is the duplicate). */
  exceptId?: number;
  /** A rule decided inside the write's transaction, after the list lock (the delete rule). */
  guard?: (trx: Knex.Transaction) => Promise<void>;
  /**
   * The run sends exactly one statement, its `log.along`, as soon as it is called: in a group on a pipelined
   * connection it is then sent without waiting for the answers to the writes before it (a create).
   */
  oneStatement?: boolean;
  /**
   * The operation itself. An error it throws (a 404 for an option not in the list, say) rolls its transaction
   * back; in a group, the others then run again alone (only refusals before `run` spare the group).
   */
  run: (trx: Knex.Transaction, list: repo.ListKey, log: Logged) => Promise<Done<T>>;
}
/**
 * What an operation answers: its result and change, and `recorded` when it already wrote the change's entry
 * itself (riding on its last statement, see `Logged.along`); otherwise the writer appends the entry.
 */
export type Done<T> = { result: T; change: OptionChange | OptionChange[]; recorded?: boolean; operationId?: string };
/** Lets an operation write its entry in the same statement as its last read (one round trip less per write). */
export interface Logged {
  /**
   * Runs `query` (one row) and appends the entry of `change` in the same statement, `fill` taking members from that
   * row. It is the operation's last statement: the transaction's commit may go out with it.
   */
  along<R>(query: Knex.QueryBuilder | Knex.Raw, change: OptionChange, fill: EntryFill): Promise<R[]>;
  /**
   * Runs one of the operation's earlier statements as the transaction's statements are sent (send-now.ts: a
   * prepared statement on PostgreSQL, so neither knex's runner nor the planner works on it each time) and
   * answers its rows. Its text must come from a fixed set (values as parameters).
   */
  send<R>(statement: Knex.Raw): Promise<R[]>;
}

/** One write waiting for its list: who, where, what, and how it is answered. */
interface WriteJob {
  user: AuthUser;
  actor: Actor;
  at: ListPath;
  plan: (scope: OptionScope) => WritePlan<unknown>;
  resolve: (result: unknown) => void;
  reject: (err: unknown) => void;
  /** Answered already (refused inside a group, before it wrote anything). */
  settled?: boolean;
}
/** A job whose right is decided and whose plan is made, inside the transaction. */
interface Prepared {
  scope: OptionScope;
  how: WritePlan<unknown>;
}
/** What `alone` keeps of an attempt, for the duplicate answer after its rollback. */
type Tried = Partial<Prepared>;

/** The event-log kind of a change; an update is named by what actually changed (both, or nothing: `option.updated`). */
const logKind = (change: OptionChange): string => {
  if (change.action !== 'option.updated') return change.action;
  const before = change.before as OptionJson;
  const after = change.after as OptionJson;
  const renamed = before.optionvalue !== after.optionvalue;
  const toggled = before.disabled !== after.disabled;
  if (renamed && !toggled) return 'option.renamed';
  if (toggled && !renamed) return after.disabled ? 'option.disabled' : 'option.enabled';
  return 'option.updated';
};
const optionIdOf = (after: unknown): number | null => {
  const id = (after as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : null;
};
/** The sibling-value unique index refused a row (the constraint name is checked when the driver reports it). */
const isDuplicateValue = (err: unknown) => {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (e.constraint === undefined || e.constraint === 'field_options_sibling_value');
};
/** Writes of one path wait for each other here (a `default` context and its id are two keys: their database lock is one). */
const keyOf = (at: ListPath) => `${at.ids.fieldId}/${at.ids.context}/${at.parentId ?? ''}`;
/** The grant decision depends on the user's id and name (its memberships are read by id, user grants by name). */
const userKey = (u: AuthUser) => `${u.id}/${u.name}`;

/**
 * Every option, child-option and list write of the option service, each in one transaction that starts by
 * locking its sibling list (options.repository.ts), then decides the caller's right under that lock
 * (list-write.ts), writes, and records its change in the event log in the same transaction; it answers after
 * every node dropped its cached lists and defaults (FIELD_OPTIONS_TOPIC).
 *
 * The lock and the right's statement go out together (list-write.ts): one round trip less under the lock.
 *
 * Short writes of one list (creates, updates and moves: `writeTogether`) that overlap in time are group-committed
 * (WriteGroups): while one transaction holds the list, the writes that come wait in memory and then run
 * together in the next transaction, which takes the lock once, decides each caller's right after it (per user),
 * runs each write in arrival order with its own event-log entry (a group's creates in one flight), and commits
 * and publishes once. Each write is answered as it would be alone: a refusal
 * decided before it wrote anything (403, 400, 404) is answered at once and the group goes on; any other failure
 * (a duplicate value refused by the unique index, a database error) rolls the group back, and its writes are
 * then run one by one, each in its own transaction, and answered from there.
 *
 * A group whose callers each got a decision on this list before is first tried the predicted way (`predict`,
 * `predictedGroup`): its writes go out in the lock's flight behind a guard per caller that re-checks the decision
 * under the lock; when one does not hold, nothing is written and the group is run the usual way above.
 */
export class OptionWriter {
  private readonly groups = new WriteGroups<WriteJob>((jobs) => this.runGroup(jobs, true));
  private readonly predictions = new WritePredictions();
  /** Groups written the predicted way (for tests and diagnostics). */
  predictedGroups = 0;

  constructor(
    private readonly knex: Knex,
    private readonly access: FieldAccess,
    private readonly changes: ChangeFeed,
    private readonly eventLog: EventLog,
  ) {}

  /** Runs one write in its own transaction: for a long write (a delete, a sort or a batch may touch many rows). */
  write<T>(user: AuthUser, at: ListPath, plan: (scope: OptionScope) => WritePlan<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => void this.runGroup([this.job(user, at, plan, resolve, reject)], false));
  }

  /** Runs one short write (few statements), which may share a transaction with overlapping writes of its list (see the class comment). */
  writeTogether<T>(user: AuthUser, at: ListPath, plan: (scope: OptionScope) => WritePlan<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.groups.submit(keyOf(at), this.job(user, at, plan, resolve, reject)));
  }

  private job<T>(user: AuthUser, at: ListPath, plan: (scope: OptionScope) => WritePlan<T>, resolve: (r: T) => void, reject: (e: unknown) => void): WriteJob {
    return { user, actor: actorOf(user), at, plan, resolve: resolve as (r: unknown) => void, reject };
  }

  /**
   * Runs a group (see the class comment); resolves once its transactions have ended, before the answers. Only short
   * writes (`predictable`) are tried the predicted way: a long one (a sort, a batch) gains little from it, and a
   * failing one would run twice.
   */
  private async runGroup(jobs: WriteJob[], predictable: boolean): Promise<void> {
    const predicted = predictable ? this.predict(jobs) : undefined;
    if (predicted) {
      const announcement = this.changes.announceWithin?.(FIELD_OPTIONS_TOPIC);
      const committed = await this.predictedGroup(jobs, predicted, announcement).catch(() => undefined);
      if (committed) {
        this.predictedGroups++;
        return this.answerWhenPublished(committed.result, announcement, committed.beforeCommitRows);
      }
      // The prediction did not hold (or the write failed): nothing was written; decided the usual way below.
      // (A write's own refusal, a 404 say, is thus answered from its second attempt.)
    }
    if (jobs.length > 1) {
      const announcement = this.changes.announceWithin?.(FIELD_OPTIONS_TOPIC);
      const committed = await this.together(jobs, announcement).catch(() => undefined);
      if (committed) return this.answerWhenPublished(committed.result, announcement, committed.beforeCommitRows);
      // Rolled back: each write that is not answered yet runs alone below.
    }
    for (const job of jobs) {
      if (job.settled) continue;
      try {
        const announcement = this.changes.announceWithin?.(FIELD_OPTIONS_TOPIC);
        const { result, beforeCommitRows } = await this.alone(job, announcement);
        this.answerWhenPublished([[job, result]], announcement, beforeCommitRows);
      } catch (err) {
        job.reject(err);
      }
    }
  }

  /**
   * Answers committed writes once every node dropped its cached lists and defaults: the change was announced
   * inside the transaction (`announcement`, whose statement answered `rows`), or is published now. The next group
   * of the list does not wait for this: the acknowledgements are waited for while it runs.
   */
  private answerWhenPublished(done: [WriteJob, unknown][], announcement: Announcement | undefined, rows: unknown[]): void {
    (announcement ? announcement.delivered(rows) : this.changes.publish(FIELD_OPTIONS_TOPIC)).then(
      () => done.forEach(([job, result]) => job.resolve(result)),
      (err: unknown) => done.forEach(([job]) => job.reject(err)),
    );
  }

  /**
   * Predicted writes: a group of top-level creates, renames and moves whose callers each got a decision on this
   * field and context before (WritePredictions), with bodies that plan. The lock, a guard per caller and the
   * first write's first statement leave in ONE flight (predictedGroup): for creates only, all of them with the
   * announcement and COMMIT, so that the list lock is held for the database's own time only; otherwise the round
   * trip of the right is saved.
   */
  private predict(jobs: WriteJob[]): Prepared[] | undefined {
    if (!isPipelined(this.knex)) return undefined;
    const prepared: Prepared[] = [];
    for (const job of jobs) {
      const known = job.at.parentId === null ? this.predictions.get(job.user, job.at.ids) : undefined;
      if (!known) return undefined;
      const scope: OptionScope = { ...known, parentId: null };
      let how: WritePlan<unknown>;
      try {
        how = job.plan(scope);
      } catch {
        return undefined; // a bad body: answered the usual way (403001 first, then the 400)
      }
      if (how.guard) return undefined;
      prepared.push({ scope, how });
    }
    return prepared;
  }

  /**
   * A predicted group in one transaction: in one flight the list lock; then, for each caller, the guard that
   * checks its predicted decision under that lock (the right's rows FOR SHARE, as a decision takes them) and
   * aborts the transaction when it no longer holds; then the first write's first statement (for creates only,
   * every write, with the announcement and the COMMIT); the further writes follow in order. A statement sent
   * behind a failed guard is not run: the database refuses every statement of an aborted transaction and answers
   * the COMMIT as a rollback. Any failure (an error the write answers, such as a 404, included) rejects, and the
   * group is then written the usual way.
   */
  private predictedGroup(jobs: WriteJob[], prepared: Prepared[], announcement: Announcement | undefined): Promise<Committed<[WriteJob, unknown][]>> {
    return transactionWithCommitBehind(
      this.knex,
      async (trx, sendLast, sender) => {
        const { ids } = jobs[0]!.at;
        const done: [WriteJob, unknown][] = [];
        const guarded = new Set<string>();
        // Each write's last statement (its entry's, Logged.along) is marked as sent: the next write may follow it
        // at once, since the database runs a connection's statements in the order they were sent.
        const lastSent: Promise<void>[] = [];
        const perform = (k: number) => {
          let markSent!: () => void;
          lastSent[k] = new Promise<void>((resolve) => (markSent = resolve));
          const send: Send =
            k === jobs.length - 1
              ? sendLast
              : (statement) => {
                  const rows = sender.send<unknown>(statement);
                  markSent();
                  return rows;
                };
          return this.perform(trx, jobs[k]!, prepared[k]!, sender, send).then((d) => void done.push([jobs[k]!, d.result]));
        };
        // Creates only: all of them in the flight. Otherwise the first write's first statement, and each further
        // write once the one before has sent its last statement (in the order the usual way runs them).
        const allInFlight = prepared.every((p) => p.how.oneStatement === true);
        const sent = sender.together(() => {
          const statements: Promise<unknown>[] = [sender.send(repo.lockListAtStatement(ids.fieldId, ids.context, null))];
          for (const [k, job] of jobs.entries()) {
            if (guarded.has(userKey(job.user))) continue;
            guarded.add(userKey(job.user));
            statements.push(sender.send(this.access.rightGuardStatement(job.user, ids, prepared[k]!.scope)));
          }
          for (let k = 0; k < (allInFlight ? jobs.length : 1); k++) statements.push(perform(k));
          return statements;
        });
        for (const s of sent) s.catch(() => undefined); // awaited together below
        for (let k = allInFlight ? jobs.length : 1; k < jobs.length; k++) {
          // The write before sent its last statement, or failed (then this rejects, and the group is redone).
          await Promise.race([lastSent[k - 1]!, sent[sent.length - 1]!]);
          const next = perform(k);
          next.catch(() => undefined); // awaited below, with the others
          sent.push(next);
        }
        await Promise.all(sent);
        return done;
      },
      announcement?.statement,
    );
  }

  /**
   * A group in one transaction: one lock, each right decided after it, each write in order, the announcement of
   * the change last; the results to answer.
   */
  private together(jobs: WriteJob[], announcement: Announcement | undefined): Promise<Committed<[WriteJob, unknown][]>> {
    return transactionWithCommitBehind(this.knex, async (trx, sendLast, sender) => {
      const { ids, parentId } = jobs[0]!.at;
      const { locked, decision } = await lockListDeciding(trx, this.access, jobs[0]!.user, ids, parentId);
      // One decision per user (taken once, under the lock, for all of that user's writes in the group).
      const decided = new Map([[userKey(jobs[0]!.user), decision]]);
      const decide = (user: AuthUser) => {
        const scope = decided.get(userKey(user)) ?? decideUnderLock(trx, this.access, user, ids, locked);
        decided.set(userKey(user), scope);
        return scope;
      };
      let parent: Promise<OptionRow> | undefined;
      const parentOf = (scope: OptionScope) => (parent ??= loadParent(trx, scope, true));
      // First the steps before each write's first row, in arrival order (they read, never write): a refusal there
      // (the right, the body, the field type, the parent) is answered now, as it would be alone, and the others go
      // on. Anything else rolls the group back.
      const ready: [WriteJob, Prepared][] = [];
      for (const job of jobs) {
        try {
          ready.push([job, await this.prepare(trx, job, {}, decide, parentOf)]);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          job.settled = true;
          job.reject(err);
        }
      }
      // Then the writes, in arrival order, the last one's statement with the COMMIT behind it. Consecutive
      // one-statement writes (creates) go out without waiting for each other's answers, in one write to the socket
      // (with the COMMIT when they end the group), and are awaited together at the end.
      const done: [WriteJob, unknown][] = [];
      const inFlight: Promise<void>[] = [];
      const perform = (k: number) => {
        const [job, prepared] = ready[k]!;
        const send = k === ready.length - 1 ? sendLast : sender.send.bind(sender);
        return this.perform(trx, job, prepared, sender, send).then((d) => void done.push([job, d.result]));
      };
      const inOneFlight = (k: number) => sender.pipelined && ready[k]![1].how.oneStatement === true;
      for (let k = 0; k < ready.length; ) {
        if (!inOneFlight(k)) {
          await perform(k++);
          continue;
        }
        let end = k;
        while (end < ready.length && inOneFlight(end)) end++;
        const run = { from: k, to: end };
        sender.together(() => {
          for (let j = run.from; j < run.to; j++) {
            const answered = perform(j);
            answered.catch(() => undefined); // awaited below, with the others
            inFlight.push(answered);
          }
        });
        k = end;
      }
      await Promise.all(inFlight);
      return done;
    }, announcement?.statement);
  }

  /**
   * One write in its own transaction, answering its result once committed. A unique-index refusal is answered
   * as the documented 400 naming the existing option; when that sibling is gone once the transaction rolled back
   * (a concurrent delete of it or of its parent committed in between), it is no duplicate any more and the write
   * is tried once again.
   */
  private async alone(job: WriteJob, announcement: Announcement | undefined): Promise<Committed<unknown>> {
    for (let attempt = 1; ; attempt++) {
      const tried: Tried = {};
      try {
        const { result: done, beforeCommitRows } = await transactionWithCommitBehind(
          this.knex,
          async (trx, sendLast, sender) => {
            const { ids, parentId } = job.at;
            const { decision } = await lockListDeciding(trx, this.access, job.user, ids, parentId);
            const prepared = await this.prepare(trx, job, tried, () => decision, (scope) => loadParent(trx, scope, true));
            return this.perform(trx, job, prepared, sender, sendLast);
          },
          announcement?.statement,
        );
        return { result: done.result, beforeCommitRows };
      } catch (err) {
        const { scope, how } = tried;
        if (scope && how?.value !== undefined && isDuplicateValue(err)) {
          const existing = await repo.findSameValue(this.knex, listOf(scope), how.value, how.exceptId);
          if (existing !== undefined) throw duplicateValue(how.value, existing);
          if (attempt < 2) continue;
        }
        throw err;
      }
    }
  }

  /**
   * The steps before a write's first row, under the list lock, in the contract's order of answers: the right
   * (403001 before anything else is revealed), the plan with its body (400), the field type (400), the guard
   * (the delete rule, 403003; taken after the list lock so that every writer locks in the same order), the
   * parent (404). `tried` receives the scope and plan as they become known.
   */
  private async prepare(
    trx: Knex.Transaction,
    job: WriteJob,
    tried: Tried,
    decide: (user: AuthUser) => Promise<EditableScope>,
    parentOf: (scope: OptionScope) => Promise<OptionRow>,
  ): Promise<Prepared> {
    let decision: EditableScope;
    try {
      decision = await decide(job.user);
    } catch (err) {
      this.predictions.forget(job.user, job.at.ids);
      throw err;
    }
    const { field, context } = decision;
    const scope: OptionScope = { field, context, parentId: job.at.parentId };
    tried.scope = scope;
    const how = (tried.how = job.plan(scope));
    checkFieldType(scope);
    this.predictions.remember(job.user, job.at.ids, decision);
    if (how.guard) await how.guard(trx);
    if (scope.parentId !== null) await parentOf(scope);
    return { scope, how };
  }

  /**
   * The operation and its event-log entry, in its transaction: both commit or neither does. `send` sends the
   * statement an entry rides on (`Logged.along`, the operation's last): for the transaction's last write, with
   * the commit behind it (commit-behind.ts); for a one-statement write of a group, without waiting (send-now.ts).
   */
  private async perform(trx: Knex.Transaction, job: WriteJob, { scope, how }: Prepared, sender: StatementSender, send: Send): Promise<Done<unknown>> {
    const entryOf = (change: OptionChange) => this.entryOf(job.actor, scope, change);
    const log: Logged = {
      along: (query, change, fill) => this.eventLog.recordAlong(trx, query, entryOf(change), fill, send),
      send: (statement) => sender.send(statement),
    };
    const done = await how.run(trx, listOf(scope), log);
    // Written here unless the operation already wrote it with its last statement.
    if (!done.recorded) {
      const changes = Array.isArray(done.change) ? done.change : [done.change];
      await this.eventLog.record(trx, ...changes.map((c) => ({ ...entryOf(c), ...(done.operationId ? { operationId: done.operationId } : {}) })));
    }
    return done;
  }

  /** The event-log entry of a change. */
  private entryOf(actor: Actor, scope: OptionScope, change: OptionChange): EventEntry {
    return {
      actor: actor.name,
      kind: logKind(change),
      fieldId: scope.field.id,
      contextId: scope.context.id,
      target:
        change.action === 'option.sorted'
          ? { type: 'optionList', parentId: scope.parentId }
          : optionTarget(optionIdOf(change.after) ?? optionIdOf(change.before), scope.parentId),
      before: change.before,
      after: change.after,
    };
  }
}
