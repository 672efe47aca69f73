import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';

/** Change-feed topic of everything that can change who may view which content, or what a code box holds. */
export const WIKI_TOPIC = 'wiki';

/**
 * A wiki write: one transaction, then every node drops its cached view decisions and code boxes before the
 * caller answers, so a download right after a save or a restriction change sees the new state.
 */
export async function wikiWrite<T>(knex: Knex, changes: ChangeFeed, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const result = await knex.transaction(fn);
  await changes.publish(WIKI_TOPIC);
  return result;
}
