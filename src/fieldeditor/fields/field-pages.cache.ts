import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { BoundedCache } from '../../platform/cache/bounded-cache.ts';
import { DIRECTORY_TOPIC } from '../../platform/auth/auth-cache.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { adminFieldPage, userFieldPage } from './field-pages.ts';
import type { PageRequest } from './fields.schemas.ts';
import type { GrantsService } from '../grants/grants.service.ts';

type AdminPage = Awaited<ReturnType<typeof adminFieldPage>>;
type UserPage = Awaited<ReturnType<typeof userFieldPage>>;

/**
 * The paginated A1 and U1 pages, remembered until any field, context or grant changes (tracker topic) or
 * any user's groups change (directory topic) anywhere in the cluster. Scripts and clients page through the
 * same lists again and again; on a large installation each page otherwise costs a filtered count.
 * A page served from memory reports `processingTimeInMs: 0`. The legacy unpaginated lists are not kept.
 */
export class FieldPages {
  private readonly adminPages: BoundedCache<string, AdminPage>;
  private readonly userPages: BoundedCache<string, UserPage>;

  constructor(
    private readonly knex: Knex,
    changes: ChangeFeed,
    private readonly grants: Pick<GrantsService, 'ofFields'>,
  ) {
    const options = { ttlMs: 5 * 60_000, maxEntries: 2_000, feed: { changes, topics: [TRACKER_TOPIC, DIRECTORY_TOPIC] } };
    this.adminPages = new BoundedCache({ name: 'fieldeditor_admin_pages', ...options });
    this.userPages = new BoundedCache({ name: 'fieldeditor_user_pages', ...options });
  }

  async admin(page: PageRequest): Promise<AdminPage> {
    return this.served(this.adminPages, JSON.stringify(page), () => adminFieldPage(this.knex, page, this.grants));
  }

  async user(page: PageRequest, user: AuthUser): Promise<UserPage> {
    return this.served(this.userPages, `${user.id}|${JSON.stringify(page)}`, () => userFieldPage(this.knex, page, user));
  }

  private async served<P extends { processingTimeInMs: number }>(cache: BoundedCache<string, P>, key: string, load: () => Promise<P>): Promise<P> {
    const hit = cache.get(key);
    if (hit) return { ...hit, processingTimeInMs: 0 };
    const since = cache.stamp();
    return cache.set(key, await load(), since);
  }
}
