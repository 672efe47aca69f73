import type { Knex } from 'knex';
import type { ChangeFeed } from './change-feed.ts';

/**
 * A write whose effects in-process caches must not outlive: one transaction, then the change is announced
 * on `topic`, and every node has dropped its caches of that topic before the caller answers.
 */
export async function announcedWrite<T>(
  knex: Knex,
  changes: ChangeFeed,
  topic: string,
  fn: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  const result = await knex.transaction(fn);
  await changes.publish(topic);
  return result;
}
