import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { BoundedCache } from '../../platform/cache/bounded-cache.ts';
import { DIRECTORY_TOPIC } from '../../platform/auth/auth-cache.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { FIELD_OPTIONS_TOPIC, FIELDEDITOR_SETTINGS_TOPIC } from '../shared/fieldeditor.topics.ts';

const TTL_MS = 5 * 60_000;

/**
 * U2 and U3 answers per user (they depend on the user's grants), kept until a change of what they show
 * anywhere in the cluster: U2 (the contexts a user may edit) on fields, contexts and grants (tracker) and
 * users and groups (directory); U3 also on the context's default value (FIELD_OPTIONS_TOPIC) and the
 * delete setting (FIELDEDITOR_SETTINGS_TOPIC). Only successful answers are kept; refusals of U3 come from
 * the scope cache.
 */
export class UserFieldReads {
  readonly contexts: BoundedCache<string, unknown[]>;
  readonly context: BoundedCache<string, Record<string, unknown>>;

  constructor(changes: ChangeFeed) {
    this.contexts = new BoundedCache({ name: 'fieldeditor_user_contexts', ttlMs: TTL_MS, maxEntries: 20_000, feed: { changes, topics: [TRACKER_TOPIC, DIRECTORY_TOPIC] } });
    this.context = new BoundedCache({
      name: 'fieldeditor_user_context',
      ttlMs: TTL_MS,
      maxEntries: 20_000,
      feed: { changes, topics: [TRACKER_TOPIC, DIRECTORY_TOPIC, FIELD_OPTIONS_TOPIC, FIELDEDITOR_SETTINGS_TOPIC] },
    });
  }
}
