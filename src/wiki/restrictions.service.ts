import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { wikiWrite } from './wiki-write.ts';
import { isAdministrator, type AuthUser } from '../platform/auth/auth-user.ts';
import { usersRepository } from '../directory/users.repository.ts';
import { groupsRepository } from '../directory/groups.repository.ts';
import { decideView } from './content-access.ts';
import type { ContentService } from './content.service.ts';
import { commentRestriction, contentNotFound, unknownRestrictionSubjects } from './wiki.errors.ts';
import { contentRepository } from './content.repository.ts';
import { restrictionsRepository as restrictions, type ReadRestriction } from './restrictions.repository.ts';
import type { RestrictionsBody } from './wiki.schemas.ts';

/** Read restrictions of pages and blog posts (comments have none: they follow their container). */
export class RestrictionsService {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
    private readonly content: ContentService,
  ) {}

  async getRead(user: AuthUser, id: number): Promise<ReadRestriction> {
    if ((await decideView(this.knex, user, id)).state !== 'allowed') throw contentNotFound(id);
    return restrictions.read(this.knex, id);
  }

  /**
   * Writers of viewable content may restrict it. Administrators may also restrict content they cannot view
   * (it must exist and not be in the trash): the way back when a restriction left nobody able to view a page,
   * e.g. after its only allowed user was deleted. This is an explicit act, not an implicit view right.
   */
  private async restrictable(trx: Knex, user: AuthUser, id: number) {
    if (!isAdministrator(user)) return this.content.writable(trx, user, id);
    const state = (await decideView(trx, user, id)).state;
    const row = state === 'allowed' || state === 'denied' ? await contentRepository.findRow(trx, id) : undefined;
    if (!row) throw contentNotFound(id);
    return row;
  }

  /**
   * Replaces the read restriction. Every named user and group must exist (400 naming the unknown ones).
   * Empty lists (or an empty array) lift the restriction. The caller may restrict itself out.
   */
  async putRead(user: AuthUser, id: number, body: RestrictionsBody): Promise<ReadRestriction> {
    return wikiWrite(this.knex, this.changes, async (trx) => {
      const row = await this.restrictable(trx, user, id);
      if (row.type === 'comment') {
        throw commentRestriction();
      }
      const entry = body[0]?.restrictions;
      const userNames = (entry?.user ?? []).map((u) => u.username);
      const groupNames = (entry?.group ?? []).map((g) => g.name);
      const [foundUsers, foundGroups] = [
        await usersRepository.findByNames(trx, userNames),
        await groupsRepository.findByNames(trx, groupNames),
      ];
      const missingUsers = userNames.filter((n) => !foundUsers.some((u) => u.name.toLowerCase() === n.toLowerCase()));
      const missingGroups = groupNames.filter((n) => !foundGroups.some((g) => g.name.toLowerCase() === n.toLowerCase()));
      if (missingUsers.length > 0 || missingGroups.length > 0) {
        throw unknownRestrictionSubjects(missingUsers, missingGroups);
      }
      await restrictions.replace(trx, id, foundUsers.map((u) => u.id), foundGroups.map((g) => g.id));
      return restrictions.read(trx, id);
    });
  }
}
