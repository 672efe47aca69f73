import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { announcedWrite } from '../platform/events/announced-write.ts';

/** Change-feed topic of fields, contexts, projects, issue types and field-editor grants. */
export const TRACKER_TOPIC = 'tracker';

/** A tracker or grant write: cached field lists of every node are dropped before the caller answers. */
export const trackerWrite = <T>(knex: Knex, changes: ChangeFeed, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
  announcedWrite(knex, changes, TRACKER_TOPIC, fn);
