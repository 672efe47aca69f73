import type { Knex } from 'knex';
import type { MacroInfo } from './storage/storage-format.ts';

/** The index write of one body: run inside the transaction that stores the body. */
export type IndexWrite = (trx: Knex.Transaction, contentId: number) => Promise<void>;

/**
 * Derived data that an add-on keeps of every stored page body (the code-block feature's code-box index,
 * say). The wiki hands each registered indexer the macros of a body it is about to store: `prepare` runs
 * before the transaction (parsing is CPU work that must not hold locks) and answers the write that the
 * wiki then runs in the same transaction as the body, so the index never disagrees with what is stored.
 * Add-ons register at start; the wiki never imports them.
 */
export interface ContentIndexer {
  prepare(macros: readonly MacroInfo[]): IndexWrite;
  /** Whether this add-on serves macros of that name (an import counts the macros no add-on serves). */
  serves?(macroName: string): boolean;
}

/** What one add-on does with every saved body, handed over as data (its feature's `hooks.wiki`). */
export interface WikiHookSet {
  contentIndexers?: readonly ContentIndexer[];
}

export class ContentIndexers {
  private readonly list: ContentIndexer[] = [];

  register(indexer: ContentIndexer): void {
    this.list.push(indexer);
  }

  /** Whether a registered add-on serves macros of that name. */
  serves(macroName: string): boolean {
    return this.list.some((i) => i.serves?.(macroName) === true);
  }

  /** One write that runs every indexer's write, in registration order. */
  prepare(macros: readonly MacroInfo[]): IndexWrite {
    const writes = this.list.map((i) => i.prepare(macros));
    return async (trx, contentId) => {
      for (const write of writes) await write(trx, contentId);
    };
  }
}
