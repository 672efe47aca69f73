import type { AuthUser } from '../../platform/auth/auth-user.ts';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { PeekedHit } from '../../platform/http/fast-path.ts';
import { BoundedCache } from '../../platform/cache/bounded-cache.ts';
import { DIRECTORY_TOPIC } from '../../platform/auth/auth-cache.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { FIELDEDITOR_SETTINGS_TOPIC } from '../shared/fieldeditor.topics.ts';
import type { ScopeIds } from './ids.ts';
import type { EditableScope } from './scope.ts';

type Decision = { scope: EditableScope } | { error: AppError };

/**
 * The permission decision of the read endpoints (U3, U4, U9, C1, U15 GET) per user, field and context:
 * the scope, or the refusal (403002, 403001, 404001), so neither a granted reader nor a refused one costs a
 * query per request. It depends on fields, contexts and grants (tracker topic), on users and their groups
 * (directory topic) and is also dropped on a settings change; any of them, on any node, empties it on every
 * node before the change answers. Writes never use it: they decide from the database.
 */
export class ScopeCache {
  private readonly cache: BoundedCache<string, Decision>;

  constructor(changes: ChangeFeed) {
    this.cache = new BoundedCache<string, Decision>({
      name: 'fieldeditor_scopes',
      ttlMs: 5 * 60_000,
      maxEntries: 50_000,
      feed: { changes, topics: [TRACKER_TOPIC, DIRECTORY_TOPIC, FIELDEDITOR_SETTINGS_TOPIC] },
    });
  }

  async resolve(user: AuthUser, ids: ScopeIds, load: () => Promise<EditableScope>): Promise<EditableScope> {
    const decision = await this.cache.getOrLoad(keyOf(user, ids), async (): Promise<Decision> => {
      try {
        return { scope: await load() };
      } catch (err) {
        // Refusals are answers too; anything unexpected is thrown and never remembered.
        if (err instanceof AppError) return { error: err };
        throw err;
      }
    });
    if ('error' in decision) throw decision.error;
    return decision.scope;
  }

  /**
   * A cached grant usable now (the change feed live), uncounted until `confirm` (the option-list fast path
   * answers only when all its lookups hit). A cached refusal is not offered: Express answers it.
   */
  peekGranted(user: AuthUser, ids: ScopeIds): PeekedHit<EditableScope> | undefined {
    const decision = this.cache.peekLive(keyOf(user, ids));
    if (decision === undefined || 'error' in decision) return undefined;
    return { value: decision.scope, confirm: () => this.cache.countHit() };
  }
}

const keyOf = (user: AuthUser, ids: ScopeIds) => `${user.id}|${ids.fieldId}|${ids.context}`;
