// The space writer (issue 31): what every wiki source (a space export, a live wiki) hands over is written here,
// one space per transaction. See docs/migration.md.
import type { Knex } from 'knex';
import { AppError } from '../../platform/http/app-error.ts';
import { DIRECTORY_TOPIC } from '../../platform/auth/auth-cache.ts';
import { WIKI_TOPIC } from '../../wiki/wiki-write.ts';
import { wikiImportPort as wiki } from '../../wiki/wiki-import-port.ts';
import type { MigrationDeps } from '../migration-deps.ts';
import type { ItemNote, MigrationReport, UnitReport } from '../report.ts';
import { fingerprintOf, migrationRecords } from '../migration-records.repository.ts';
import { WIKI_SOURCE } from './content-ids.ts';
import { ContentRefused, writeContent } from './space-content.ts';
import { ensurePeople } from './space-people.ts';
import { UnitCounter } from './unit-counter.ts';
import type { SourceItemNote, SourceSpace, SourceSpaceBundle, WikiSource } from './space-model.ts';

export interface WikiImportOptions {
  /** Space keys to import (all of the source's when absent or empty). */
  spaces?: string[];
  /** Run everything in the transaction and roll it back: exact counts, nothing written. */
  dryRun: boolean;
  progress: (m: string) => void;
}

/** Thrown at the end of a dry run's transaction, so knex rolls it back. */
class DryRunRollback extends Error {}

/** A space refused before any content (its key clashes with another space's). */
class SpaceRefused extends Error {}

const emptyUnit = (name: string): UnitReport => ({ kind: 'space', name, outcome: 'failed', counts: {}, mapped: [], skipped: {} });

/** The space by key: created, or its name and description brought up to date (its home page follows its content). */
async function writeSpace(trx: Knex, s: SourceSpace, count: UnitCounter): Promise<number> {
  const fingerprint = fingerprintOf({ key: s.key, name: s.name, description: s.description, homePageId: s.homePageId ?? null });
  const name = s.name.slice(0, 255);
  let row = await wiki.findSpace(trx, s.key);
  const record = row && (await migrationRecords.find(trx, WIKI_SOURCE, 'space', s.key));
  if (!row) {
    if (await wiki.spaceKeyTaken(trx, s.key)) throw new SpaceRefused(`the key ${s.key} differs only in case from a space that exists here`);
    row = await wiki.createSpace(trx, { key: s.key, name, description: s.description });
    count.add('spaces', 'created');
  } else if (record?.fingerprint === fingerprint) {
    // Nothing new at the source: not even the record is written.
    count.add('spaces', 'unchanged');
    return row.id;
  } else if (row.name !== name || row.description !== s.description) {
    await wiki.updateSpace(trx, row.id, { name, description: s.description });
    count.add('spaces', 'updated');
  } else count.add('spaces', 'unchanged');
  await migrationRecords.save(trx, WIKI_SOURCE, 'space', { sourceId: s.key, localId: s.key, fingerprint });
  return row.id;
}

/** The space's home page, by our id of the source's (none when the source has none or it was not imported). */
async function writeHomePage(trx: Knex, spaceId: number, homePageId: number | null, count: UnitCounter): Promise<void> {
  const current = await wiki.homePageOf(trx, spaceId);
  if (current === homePageId) {
    if (homePageId !== null) count.add('home pages', 'unchanged');
    return;
  }
  await wiki.setHomePage(trx, spaceId, homePageId);
  if (homePageId !== null) count.add('home pages', current === null ? 'created' : 'updated');
}

/** Group members as the source lists them, by group name in any case. */
function membersOfGroups(bundle: SourceSpaceBundle): (group: string) => readonly string[] {
  const members = new Map(bundle.groups.map((g) => [g.name.toLowerCase(), g.members]));
  return (group) => members.get(group.toLowerCase()) ?? [];
}

const notImported = (n: SourceItemNote): ItemNote => ({ kind: n.type, id: n.id, title: n.title, outcome: 'not imported', reason: n.reason });

/** One line for the report: what went wrong, never a stack. */
function reasonOf(err: unknown): string {
  if (err instanceof ContentRefused || err instanceof SpaceRefused || err instanceof AppError) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!;
}

async function importSpace(deps: MigrationDeps, bundle: SourceSpaceBundle, opts: WikiImportOptions): Promise<{ unit: UnitReport; withoutPassword: string[] }> {
  const key = bundle.space.key;
  const count = new UnitCounter();
  let withoutPassword: string[] = [];
  let nobodyReads = false;
  try {
    await deps.db.knex.transaction(async (trx) => {
      const people = await ensurePeople(trx, bundle, count);
      withoutPassword = people.withoutPassword;
      const spaceId = await writeSpace(trx, bundle.space, count);
      const ids = await writeContent(trx, { bundle, spaceId, people, membersOf: membersOfGroups(bundle), indexers: deps.contentIndexers, count, dryRun: opts.dryRun, progress: opts.progress });
      await writeHomePage(trx, spaceId, bundle.space.homePageId === undefined ? null : (ids.of(bundle.space.homePageId) ?? null), count);
      nobodyReads = !(await wiki.anyoneReads(trx, spaceId));
      if (opts.dryRun) throw new DryRunRollback();
    });
  } catch (err) {
    if (!(err instanceof DryRunRollback)) {
      opts.progress(`space ${key}: failed, nothing written`);
      return { unit: { ...emptyUnit(key), reason: reasonOf(err), skipped: { ...bundle.notImported }, items: [...(bundle.notImportedItems ?? [])].map(notImported) }, withoutPassword: [] };
    }
  }
  const outcome = !count.changed ? 'unchanged' : opts.dryRun ? 'would-import' : 'imported';
  if (outcome === 'imported') {
    // Every node drops its cached view decisions, code boxes and logins of what this space changed.
    await deps.db.changes.publish(WIKI_TOPIC);
    if (count.counts.users?.created || count.counts.groups?.created || count.counts['group memberships']?.created) await deps.db.changes.publish(DIRECTORY_TOPIC);
  }
  opts.progress(`space ${key}: ${outcome}`);
  const skipped = { ...bundle.notImported };
  for (const [reason, n] of Object.entries(count.skipped)) skipped[reason] = (skipped[reason] ?? 0) + n;
  const items = [...count.items, ...(bundle.notImportedItems ?? []).map(notImported)];
  return { unit: { kind: 'space', name: key, outcome, counts: count.counts, mapped: count.mapped, skipped, items, nobodyReads }, withoutPassword };
}

/**
 * Imports the source's spaces (those of `opts.spaces`, or all), each in ONE transaction: a space that fails is
 * left untouched and reported with its reason, and the next one goes on. A re-run writes only what is new or
 * changed (migration_records' fingerprints). A requested key the source does not hold is a failed unit.
 */
export async function importWikiSpaces(deps: MigrationDeps, source: WikiSource, opts: WikiImportOptions): Promise<MigrationReport> {
  const report: MigrationReport = { source: source.label, dryRun: opts.dryRun, units: [], usersWithoutPassword: [], warnings: [] };
  const noPassword = new Set<string>();
  const wanted = opts.spaces && opts.spaces.length > 0 ? opts.spaces : undefined;
  const seen = new Set<string>();
  for await (const bundle of source.spaces(wanted)) {
    seen.add(bundle.space.key.toLowerCase());
    if (bundle.failure !== undefined) {
      opts.progress(`space ${bundle.space.key}: failed, nothing written`);
      report.units.push({ ...emptyUnit(bundle.space.key), reason: bundle.failure });
      continue;
    }
    opts.progress(`space ${bundle.space.key}: ${bundle.content.length} content items`);
    const { unit, withoutPassword } = await importSpace(deps, bundle, opts);
    report.units.push(unit);
    for (const name of withoutPassword) noPassword.add(name);
  }
  for (const key of wanted ?? []) {
    if (!seen.has(key.toLowerCase())) report.units.push({ ...emptyUnit(key), reason: `the source ${source.label} holds no space with this key` });
  }
  report.usersWithoutPassword = [...noPassword].sort();
  return report;
}
