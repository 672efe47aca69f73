import type { Knex } from 'knex';

/** A user or group as it is being deleted (or deactivated). */
export interface DeletedPrincipal {
  id: number;
  name: string;
  /** Who asked for it: a user name, or `system` (the command line, an import). */
  actor?: string;
}

/**
 * One change of the directory as the audit trail records it: who did what to which user, group or token, with
 * the changed members before and after. Never a password or a token's value.
 */
export interface DirectoryChange {
  /** A user name, or `system` (the command line, an import). */
  actor: string;
  /** `user.created`, `user.updated`, `user.password_set`, `user.password_changed`, `user.unlocked`, `group.created`, `group.member_added`, `group.member_removed`, `token.created`, `token.revoked`. */
  kind: string;
  target: { type: 'user' | 'group' | 'token'; name: string; id?: number; owner?: string };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Work another feature does inside every audited directory change's transaction (an audit entry). */
export type ChangeHook = (trx: Knex.Transaction, change: DirectoryChange) => Promise<void>;

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
  /** A user was deactivated: its sessions end (the web interface). */
  userDeactivated?: DeletionHook;
  /** Any other audited change (the field editor's event log is the audit trail). */
  changed?: ChangeHook;
  /** Change-feed topics the hooks' writes make stale. */
  announces?: readonly string[];
}

export class DirectoryHooks {
  private readonly onUser: DeletionHook[] = [];
  private readonly onGroup: DeletionHook[] = [];
  private readonly onDeactivated: DeletionHook[] = [];
  private readonly onChange: ChangeHook[] = [];
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
    if (set.userDeactivated) this.onDeactivated.push(set.userDeactivated);
    if (set.changed) this.onChange.push(set.changed);
  }

  async userDeactivated(trx: Knex.Transaction, user: DeletedPrincipal): Promise<void> {
    for (const hook of this.onDeactivated) await hook(trx, user);
  }

  /** Records an audited change in its transaction (if a hook fails, the change rolls back). */
  async changed(trx: Knex.Transaction, change: DirectoryChange): Promise<void> {
    for (const hook of this.onChange) await hook(trx, change);
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
