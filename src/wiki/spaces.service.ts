import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { wikiWrite } from './wiki-write.ts';
import { AppError, badRequest, notFound } from '../platform/http/app-error.ts';
import type { AuthUser } from '../platform/auth/auth-user.ts';
import { usersRepository } from '../directory/users.repository.ts';
import { groupsRepository } from '../directory/groups.repository.ts';
import { spacesRepository as spaces, type PermissionRow, type SpaceRow } from './spaces.repository.ts';
import type { CreateSpaceBody, PermissionBody } from './wiki.schemas.ts';

export interface PresentablePermission {
  id: number;
  subject: { type: 'user' | 'group'; identifier: string };
  operation: { key: string; target: string };
}

const spaceNotFound = (key: string) => notFound(`No space with key : ${key}`, 'SPACE_NOT_FOUND');

/** Spaces and their permissions. Routes check the administrator role; this class checks everything else. */
export class SpacesService {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
  ) {}

  async create(body: CreateSpaceBody): Promise<SpaceRow> {
    return wikiWrite(this.knex, this.changes, async (trx) => {
      if (await spaces.keyTaken(trx, body.key)) {
        throw new AppError(400, 'SPACE_EXISTS', `A space already exists with key ${body.key}`);
      }
      return spaces.insert(trx, body);
    });
  }

  /** The space, for readers of it only: anybody else gets the same 404 as for a key that does not exist. */
  async getForReader(user: AuthUser, key: string): Promise<SpaceRow> {
    const space = await spaces.findByKey(this.knex, key);
    if (!space || !(await spaces.canRead(this.knex, user.id, space.id))) throw spaceNotFound(key);
    return space;
  }

  /** Grants a permission; granting one that exists already answers the existing grant. */
  async addPermission(key: string, body: PermissionBody): Promise<PresentablePermission> {
    return wikiWrite(this.knex, this.changes, async (trx) => {
      const space = await spaces.findByKey(trx, key);
      if (!space) throw spaceNotFound(key);
      const { type, identifier } = body.subject;
      let userId: number | null = null;
      let groupId: number | null = null;
      let name: string;
      if (type === 'user') {
        const u = await usersRepository.findByName(trx, identifier);
        if (!u) throw badRequest(`No user with name ${identifier}`, [{ name: 'subject.identifier', message: 'No such user.', value: identifier }], 'USER_NOT_FOUND');
        userId = u.id;
        name = u.name;
      } else {
        const g = await groupsRepository.findByName(trx, identifier);
        if (!g) throw badRequest(`No group with name ${identifier}`, [{ name: 'subject.identifier', message: 'No such group.', value: identifier }], 'GROUP_NOT_FOUND');
        groupId = g.id;
        name = g.name;
      }
      const wanted = { spaceId: space.id, userId, groupId, operation: body.operation.key, target: body.operation.target };
      const row = (await spaces.findPermission(trx, wanted)) ?? (await spaces.insertPermission(trx, wanted));
      return present(row, type, name);
    });
  }

  async deletePermission(key: string, id: number): Promise<void> {
    await wikiWrite(this.knex, this.changes, async (trx) => {
      const space = await spaces.findByKey(trx, key);
      if (!space) throw spaceNotFound(key);
      if (!(await spaces.deletePermission(trx, space.id, id))) {
        throw notFound(`No permission with id ${id} in space ${key}`, 'PERMISSION_NOT_FOUND');
      }
    });
  }
}

function present(row: PermissionRow, type: 'user' | 'group', identifier: string): PresentablePermission {
  return { id: row.id, subject: { type, identifier }, operation: { key: row.operation, target: row.target } };
}
