import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { wikiWrite } from './wiki-write.ts';
import { isAdministrator, type AuthUser } from '../platform/auth/auth-user.ts';
import { usersRepository } from '../directory/users.repository.ts';
import { groupsRepository } from '../directory/groups.repository.ts';
import { spacesRepository as spaces, type NamedPermissionRow, type PermissionRow, type SpaceRow } from './spaces.repository.ts';
import type { CreateSpaceBody, PermissionBody } from './wiki.schemas.ts';
import { pageOf, type Page } from './paging.ts';
import { decideView } from './content-access.ts';
import type { ContentSummary } from './content.repository.ts';
import {
  mayNotAdministerSpace,
  permissionGroupNotFound,
  permissionNotFound,
  permissionUserNotFound,
  spaceExists,
  spaceNotFound,
} from './wiki.errors.ts';

export interface PresentablePermission {
  id: number;
  subject: { type: 'user' | 'group'; identifier: string };
  operation: { key: string; target: string };
}

/** What the creator of a space holds in it from the start: read, create (any type) and administer. */
const CREATOR_GRANTS = [
  { operation: 'read', target: 'space' },
  { operation: 'create', target: 'space' },
  { operation: 'administer', target: 'space' },
] as const;

/**
 * Spaces and their permissions. Routes check the administrator role where it alone decides (creating a
 * space); this class checks everything else, inside the transaction of the change it guards.
 */
export class SpacesService {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
  ) {}

  /**
   * Creates the space and gives its creator read, create and administer in it, as the wiki host does. These
   * are ordinary permission rows: listed with the others and removable like any other.
   */
  async create(creator: AuthUser, body: CreateSpaceBody): Promise<SpaceRow> {
    return wikiWrite(this.knex, this.changes, async (trx) => {
      if (await spaces.keyTaken(trx, body.key)) {
        throw spaceExists(body.key);
      }
      const space = await spaces.insert(trx, body);
      for (const g of CREATOR_GRANTS) {
        await spaces.insertPermission(trx, { spaceId: space.id, userId: creator.id, groupId: null, ...g });
      }
      return space;
    });
  }

  /** One page of the spaces the caller may read, by key. */
  async listReadable(user: AuthUser, start: number, limit: number): Promise<Page<SpaceRow>> {
    return pageOf(await spaces.listReadable(this.knex, user.id, start, limit), start, limit);
  }

  /** One page of every space (administrators only; the route checks the role), with whether anybody reads it. */
  async listAll(start: number, limit: number): Promise<Page<SpaceRow & { nobody_reads: boolean }>> {
    return pageOf(await spaces.listAll(this.knex, start, limit), start, limit);
  }

  /**
   * The space, locked, when the caller may administer it: host administrators, and holders of `administer`
   * on it. Others get 404 when they cannot read the space either (keys reveal nothing), else 403.
   */
  private async administrable(trx: Knex, user: AuthUser, key: string): Promise<SpaceRow> {
    const space = await spaces.findByKeyForUpdate(trx, key);
    if (!space) throw spaceNotFound(key);
    if (isAdministrator(user) || (await spaces.canAdminister(trx, user.id, space.id))) return space;
    if (!(await spaces.canRead(trx, user.id, space.id))) throw spaceNotFound(key);
    throw mayNotAdministerSpace(key);
  }

  /** Deletes the space: it and all its content go to the trash, its key becomes free. */
  async delete(user: AuthUser, key: string): Promise<void> {
    await wikiWrite(this.knex, this.changes, async (trx) => {
      const space = await this.administrable(trx, user, key);
      await spaces.trash(trx, space.id);
    });
  }

  async listPermissions(user: AuthUser, key: string): Promise<PresentablePermission[]> {
    return this.knex.transaction(async (trx) => {
      const space = await this.administrable(trx, user, key);
      return (await spaces.listPermissions(trx, space.id)).map(presentNamed);
    });
  }

  /** The space, for readers of it only: anybody else gets the same 404 as for a key that does not exist. */
  async getForReader(user: AuthUser, key: string): Promise<SpaceRow> {
    const space = await spaces.findByKey(this.knex, key);
    if (!space || !(await spaces.canRead(this.knex, user.id, space.id))) throw spaceNotFound(key);
    return space;
  }

  /** The space's home page, when it has one that `user` may view (the original wiki's `expand=homepage`). */
  async homePageFor(user: AuthUser, space: SpaceRow): Promise<ContentSummary | undefined> {
    const id = await spaces.homePageOf(this.knex, space.id);
    if (id === null) return undefined;
    const view = await decideView(this.knex, user, id);
    return view.state === 'allowed' ? { id, type: view.content.type, status: 'current', title: view.content.title } : undefined;
  }

  /** Grants a permission; granting one that exists already answers the existing grant. */
  async addPermission(user: AuthUser, key: string, body: PermissionBody): Promise<PresentablePermission> {
    return wikiWrite(this.knex, this.changes, async (trx) => {
      const space = await this.administrable(trx, user, key);
      const { type, identifier } = body.subject;
      let userId: number | null = null;
      let groupId: number | null = null;
      let name: string;
      if (type === 'user') {
        const u = await usersRepository.findByName(trx, identifier);
        if (!u) throw permissionUserNotFound(identifier);
        userId = u.id;
        name = u.name;
      } else {
        const g = await groupsRepository.findByName(trx, identifier);
        if (!g) throw permissionGroupNotFound(identifier);
        groupId = g.id;
        name = g.name;
      }
      const wanted = { spaceId: space.id, userId, groupId, operation: body.operation.key, target: body.operation.target };
      const row = (await spaces.findPermission(trx, wanted)) ?? (await spaces.insertPermission(trx, wanted));
      return present(row, type, name);
    });
  }

  async deletePermission(user: AuthUser, key: string, id: number): Promise<void> {
    await wikiWrite(this.knex, this.changes, async (trx) => {
      const space = await this.administrable(trx, user, key);
      if (!(await spaces.deletePermission(trx, space.id, id))) {
        throw permissionNotFound(id, key);
      }
    });
  }
}

function present(row: PermissionRow, type: 'user' | 'group', identifier: string): PresentablePermission {
  return { id: row.id, subject: { type, identifier }, operation: { key: row.operation, target: row.target } };
}

function presentNamed(row: NamedPermissionRow): PresentablePermission {
  return row.user_id !== null ? present(row, 'user', row.user_name ?? '') : present(row, 'group', row.group_name ?? '');
}
