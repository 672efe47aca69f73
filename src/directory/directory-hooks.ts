import type { Knex } from 'knex';

/** A user or group as it is being deleted. */
export interface DeletedPrincipal {
  id: number;
  name: string;
}

/**
 * Work another feature must do when a user or group goes, run INSIDE the deletion's transaction: if a hook
 * fails, the deletion rolls back with it, so a right tied to a name (a field-editor grant, say) can never
 * outlive its user and pass to the next user of that name. Features register at start; the directory never
 * imports them. `announces` lists change-feed topics whose caches the hook's writes make stale; they are
 * published with the directory's own topic after the commit.
 */
export type DeletionHook = (trx: Knex.Transaction, deleted: DeletedPrincipal) => Promise<void>;

/**
 * What one feature does inside the directory's deletions, handed over as data (the feature's `hooks.directory`;
 * services.ts registers it here).
 */
export interface DirectoryHookSet {
  userDeleted?: DeletionHook;
  groupDeleted?: DeletionHook;
  /** Change-feed topics the hooks' writes make stale. */
  announces?: readonly string[];
}

export class DirectoryHooks {
  private readonly onUser: DeletionHook[] = [];
  private readonly onGroup: DeletionHook[] = [];
  private readonly topics = new Set<string>();

  onUserDeleted(hook: DeletionHook, opts: { announces?: readonly string[] } = {}): void {
    this.onUser.push(hook);
    for (const t of opts.announces ?? []) this.topics.add(t);
  }

  onGroupDeleted(hook: DeletionHook, opts: { announces?: readonly string[] } = {}): void {
    this.onGroup.push(hook);
    for (const t of opts.announces ?? []) this.topics.add(t);
  }

  /** Registers every hook of one feature's set. */
  register(set: DirectoryHookSet): void {
    const opts = { announces: set.announces };
    if (set.userDeleted) this.onUserDeleted(set.userDeleted, opts);
    if (set.groupDeleted) this.onGroupDeleted(set.groupDeleted, opts);
  }

  async userDeleted(trx: Knex.Transaction, user: DeletedPrincipal): Promise<void> {
    for (const hook of this.onUser) await hook(trx, user);
  }

  async groupDeleted(trx: Knex.Transaction, group: DeletedPrincipal): Promise<void> {
    for (const hook of this.onGroup) await hook(trx, group);
  }

  /** Topics the registered hooks write to (announced after a deletion commits). */
  get announcedTopics(): readonly string[] {
    return [...this.topics];
  }
}
