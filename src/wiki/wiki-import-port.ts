// What an import from elsewhere (src/migration/) may do to the wiki, inside the transaction of the space it
// imports: find or create the space by key and bring its name, description and home page in line, write pages,
// blog posts and comments with the source's ids, versions and dates (content-import.repository.ts), and set
// their view restrictions. The wiki keeps its own repositories; the migration writes through this port only (the
// dependency rule migration-writes-through-importer-exports). Bodies go through the wiki's storage step
// (content-storage.ts) as a REST save's do; announcing WIKI_TOPIC after the commit is the caller's.
import type { Knex } from 'knex';
import { contentImportRepository as contents, type ImportedContent } from './content-import.repository.ts';
import { contentRepository } from './content.repository.ts';
import { restrictionsRepository as restrictions } from './restrictions.repository.ts';
import { spacesRepository as spaces, type SpaceRow } from './spaces.repository.ts';

export type { ImportedContent };

export const wikiImportPort = {
  /** The current space of this exact key. */
  findSpace: (trx: Knex, key: string): Promise<SpaceRow | undefined> => spaces.findByKey(trx, key),

  /** Whether a current space has this key without regard to case (space keys are unique so). */
  spaceKeyTaken: (trx: Knex, key: string): Promise<boolean> => spaces.keyTaken(trx, key),

  /** Creates a space; nobody may read it until an administrator grants it (see `anyoneReads`). */
  createSpace: (trx: Knex, s: { key: string; name: string; description: string }): Promise<SpaceRow> => spaces.insert(trx, s),

  updateSpace: (trx: Knex, id: number, s: { name: string; description: string }): Promise<void> => spaces.update(trx, id, s),

  homePageOf: (trx: Knex, spaceId: number): Promise<number | null> => spaces.homePageOf(trx, spaceId),

  setHomePage: (trx: Knex, spaceId: number, contentId: number | null): Promise<void> => spaces.setHomePage(trx, spaceId, contentId),

  /** Whether any user or group holds read on the space. */
  anyoneReads: (trx: Knex, spaceId: number): Promise<boolean> => spaces.anyoneReads(trx, spaceId),

  /** Of these content ids, those a content holds (current or trashed). */
  takenContentIds: (trx: Knex, ids: readonly number[]): Promise<Set<number>> => contents.takenIds(trx, ids),

  /** A fresh content id from the sequence (for a source id that is taken here). */
  nextContentId: (trx: Knex): Promise<number> => contents.nextId(trx),

  /** The current version number of a content, or undefined when it is gone. */
  async contentVersion(trx: Knex, id: number): Promise<number | undefined> {
    return (await contentRepository.findRow(trx, id))?.version;
  },

  /** A new content with its first version (the source's number, creator and dates). */
  insertContent: (trx: Knex, c: ImportedContent): Promise<void> => contents.insert(trx, c),

  /** A changed source record: a new current version of the content, which stays current, in its space. */
  updateContent: (trx: Knex, c: ImportedContent): Promise<void> => contents.update(trx, c),

  /** After contents were inserted with the source's ids: the id sequence continues behind the largest id. */
  continueContentIds: (trx: Knex): Promise<void> => contentRepository.bumpIdSequence(trx),

  /** Restricts the content to nobody (no reader passes until an administrator sets its restriction). */
  hideContent: (trx: Knex, contentId: number): Promise<void> => restrictions.hide(trx, contentId),

  /** Sets the content's view restriction to exactly these users and groups; none at all lifts it. */
  restrictContent: (trx: Knex, contentId: number, userIds: number[], groupIds: number[]): Promise<void> =>
    restrictions.replace(trx, contentId, userIds, groupIds),
};
