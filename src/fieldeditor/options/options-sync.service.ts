import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import type { FieldProblem } from '../../platform/http/app-error.ts';
import { actorOf } from '../access/actor.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { isCascading, isMultiLevel } from '../access/field-kinds.ts';
import type { ScopeIds } from '../access/ids.ts';
import type { EditableScope } from '../access/scope.ts';
import { validationError } from '../shared/fieldeditor.errors.ts';
import { POSITION_GAP } from '../shared/fieldeditor.model.ts';
import { FIELD_OPTIONS_TOPIC } from '../shared/fieldeditor.topics.ts';
import type { EventLog } from '../maintenance/event-log.ts';
import type { EventEntry } from '../maintenance/event-log.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { optionTarget, valueKey } from './options.model.ts';
import { deleteListLocks } from './options.repository.ts';
import { fieldTypeRefusal } from './option-scope.ts';
import { deleteOptions, insertPlaced, setKeysAside, updatePlaced } from './options-batch.repository.ts';
import { preconditionFailed, preconditionRequired } from './options.errors.ts';
import { diffTree, type PlanParent, type SyncDiff, type SyncPlan } from './options-sync.diff.ts';
import { forestFromCsv } from './options-sync.csv.ts';
import { syncLevels, type FileNode } from './options-sync.input.ts';
import type { SyncFile } from './options-sync.upload.ts';
import { headerNames, treeTag } from './options-tag.ts';
import { listVersions, lockTree, readTree, type TreeRow } from './options-tree.repository.ts';

export interface SyncRequest {
  dryRun: boolean;
  allowDelete: boolean;
  /** The If-Match header as sent. */
  ifMatch?: string | undefined;
}

export type SyncAnswer = SyncDiff & { applied: boolean; etag: string; operationId?: string };

/**
 * POST options/sync (issue 27): brings a context's option tree to the tree of a file. A dry run reads the
 * tree and its tag in one repeatable-read snapshot and answers the diff (options-sync.diff.ts). Applying
 * needs If-Match with the tag the preview answered (428 without it, 412 when the tree changed since): in one
 * transaction it locks the top-level list and decides the right (ap_lock_and_decide, as every option write), locks
 * every other list of the tree, compares the tag, applies the delete rule when it deletes, computes the diff
 * again on the locked tree and writes exactly that, set-based (a statement per kind of write and level); one
 * event-log entry per changed option, all with one operation id.
 */
export class OptionsSync {
  constructor(
    private readonly knex: Knex,
    private readonly access: FieldAccess,
    private readonly settings: SettingsService,
    private readonly changes: ChangeFeed,
    private readonly eventLog: EventLog,
  ) {}

  /**
   * The caller's right to sync this context, decided before its file is read (issue 44: no byte of an upload
   * is read for a caller without a grant), and how deep the field's options go. A read decision (the scope
   * cache); applying decides again inside its transaction.
   */
  async admit(user: AuthUser, ids: ScopeIds): Promise<{ levels: number }> {
    const scope = await this.access.readable(user, ids);
    checkType(scope);
    return { levels: syncLevels(scope.field) };
  }

  async run(user: AuthUser, ids: ScopeIds, req: SyncRequest, file: SyncFile): Promise<SyncAnswer> {
    return req.dryRun ? this.preview(user, ids, req, file) : this.apply(user, ids, req, file);
  }

  private async preview(user: AuthUser, ids: ScopeIds, req: SyncRequest, file: SyncFile): Promise<SyncAnswer> {
    const scope = await this.access.readable(user, ids);
    checkType(scope);
    return this.knex.transaction(
      async (trx) => {
        const etag = treeTag(scope.context.id, await listVersions(trx, scope.context.id));
        if (req.ifMatch !== undefined && !headerNames(req.ifMatch, etag, false)) throw preconditionFailed();
        const { plan } = planOf(await readTree(trx, scope.context.id), file, scope, req.allowDelete);
        return { ...plan.diff, applied: false, etag };
      },
      { isolationLevel: 'repeatable read' },
    );
  }

  private async apply(user: AuthUser, ids: ScopeIds, req: SyncRequest, file: SyncFile): Promise<SyncAnswer> {
    const actor = actorOf(user);
    const operationId = randomUUID();
    const answer = await this.knex.transaction(async (trx) => {
      const scope = await this.access.lockAndDecide(trx, user, ids, null);
      checkType(scope);
      if (req.ifMatch === undefined) throw preconditionRequired();
      const contextId = scope.context.id;
      const locked = await lockTree(trx, contextId, !isCascading(scope.field) ? 'none' : isMultiLevel(scope.field) ? 'all' : 'top');
      // The top-level list's version was raised by this transaction's lock (or its row made, version 1): the tag is the one before.
      const before = locked.flatMap((v) => (Number(v.parent_key) !== 0 ? [v] : Number(v.version) > 1 ? [{ ...v, version: Number(v.version) - 1 }] : []));
      const etag = treeTag(contextId, before);
      if (!headerNames(req.ifMatch, etag, false)) throw preconditionFailed();
      const tree = await readTree(trx, contextId);
      const { plan } = planOf(tree, file, scope, req.allowDelete);
      if (plan.deletes.length > 0) await this.settings.checkMayDelete(trx, actor);
      const entries = await write(trx, scope, tree, plan);
      await this.eventLog.record(trx, ...entries.map((e) => ({ ...e, actor: actor.name, operationId })));
      return plan.diff;
    });
    await this.changes.publish(FIELD_OPTIONS_TOPIC);
    const scope = await this.access.readable(user, ids);
    const etag = treeTag(scope.context.id, await listVersions(this.knex, scope.context.id));
    return { ...answer, applied: true, etag, operationId };
  }
}

function checkType(scope: EditableScope): void {
  const refusal = fieldTypeRefusal({ ...scope, parentId: null });
  if (refusal) throw refusal;
}

/** Problems answered at most (a file of 100,000 bad rows is not answered with 100,000 entries). */
const MAX_PROBLEMS = 100;

/** The file read and compared with the tree: every problem of either step answered at once (400, nothing written). */
function planOf(tree: TreeRow[], file: SyncFile, scope: EditableScope, allowDelete: boolean): { plan: SyncPlan } {
  const problems: FieldProblem[] = [...file.problems];
  const forest: FileNode[] = 'csv' in file ? forestFromCsv(file.csv, tree, problems) : file.forest;
  // Compared even when the file has problems (the options that have one left out), so that all are answered.
  const { plan, problems: diffProblems } = diffTree(tree, forest, syncLevels(scope.field), allowDelete);
  problems.push(...diffProblems);
  if (problems.length > 0) throw validationError(problems.slice(0, MAX_PROBLEMS));
  return { plan };
}

type Entry = Omit<EventEntry, 'actor'>;

/**
 * The plan's writes, in the order that keeps every constraint true after each statement: value keys of
 * renamed, moved and deleted options set aside; new options level by level (their parents exist: older, or
 * one level up); existing options renamed, (dis)enabled, moved and placed; then the deletes (after the moves,
 * so an option moved out of a deleted one stays). Answers the event-log entries.
 */
async function write(trx: Knex.Transaction, scope: EditableScope, tree: TreeRow[], plan: SyncPlan): Promise<Entry[]> {
  const contextId = scope.context.id;
  const created = new Map<FileNode, number>();
  const parentIdOf = (p: PlanParent): number | null => (p === null ? null : 'id' in p ? p.id : (created.get(p.node) ?? null));
  await setKeysAside(trx, plan.asideIds);
  for (const level of plan.creates) {
    const items = level.map((c) => ({ parentId: parentIdOf(c.parent), value: c.node.value, disabled: c.disabled, position: c.position * POSITION_GAP }));
    const rows = await insertPlaced(trx, scope.field.id, contextId, items);
    const byKey = new Map(rows.map((r) => [`${r.parent_id ?? 0}\u0000${r.value_key}`, r.id] as const));
    level.forEach((c, i) => created.set(c.node, byKey.get(`${items[i]!.parentId ?? 0}\u0000${valueKey(c.node.value)}`)!));
  }
  const rowOf = new Map(tree.map((r) => [r.id, r] as const));
  const aside = new Set(plan.asideIds);
  await updatePlaced(
    trx,
    plan.updates.map((u) => ({
      id: u.id,
      // A key set aside comes back with the (new or old) value.
      value: u.value ?? (aside.has(u.id) ? rowOf.get(u.id)?.value : undefined),
      disabled: u.disabled,
      setParent: u.parent !== undefined,
      parentId: u.parent === undefined ? undefined : parentIdOf(u.parent),
      position: u.position === undefined ? undefined : u.position * POSITION_GAP,
    })),
  );
  if (plan.deletes.length > 0) {
    const subtrees = await deleteOptions(trx, plan.deletes);
    await deleteListLocks(trx, contextId, [...subtrees.values()].flat());
  }
  const json = (id: number, value: string, disabled: boolean, parentId: number | null, sequence: number) => ({ optionvalue: value, id, sequence, disabled, parentId });
  return plan.changes.map((c) => {
    const id = c.id ?? created.get(c.node!) ?? null;
    const after = c.after ? json(id ?? 0, c.after.value, c.after.disabled, parentIdOf(c.after.parent), c.after.position) : null;
    const before = c.before ? json(c.before.id, c.before.value, c.before.disabled, c.before.parent_id, c.before.seq) : null;
    return { kind: c.kind, fieldId: scope.field.id, contextId, target: optionTarget(id, after?.parentId ?? before?.parentId ?? null), before, after };
  });
}
