import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { announcedWrite } from '../platform/events/announced-write.ts';

/** Change-feed topic of everything that can change who may view which content, or what a code box holds. */
export const WIKI_TOPIC = 'wiki';

/** A wiki write: cached view decisions and code boxes of every node are dropped before the caller answers. */
export const wikiWrite = <T>(knex: Knex, changes: ChangeFeed, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
  announcedWrite(knex, changes, WIKI_TOPIC, fn);
