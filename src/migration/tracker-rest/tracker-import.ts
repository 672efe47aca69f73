// `import-from tracker URL`: every select field the source's field editor serves (or those `fields` names, by
// id or name), all read over REST first (the run's largest source ids decide where new ids go), then each
// written in ONE transaction of its own: field, contexts, options, defaults, grants and the users and groups
// they name. A field whose fingerprint matches its
// migration record is left alone; a failure leaves its field untouched and the others go on; a dry run runs
// the same writes and rolls them back. After each commit the change feed tells every node's caches.
import { DIRECTORY_TOPIC } from '../../platform/auth/auth-cache.ts';
import { FIELD_OPTIONS_TOPIC } from '../../fieldeditor/shared/fieldeditor.topics.ts';
import { trackerImportPort as tracker } from '../../tracker/tracker-import-port.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { migrationRecords } from '../migration-records.repository.ts';
import type { MigrationDeps } from '../migration-deps.ts';
import type { MigrationReport, UnitReport } from '../report.ts';
import { SourceClient, SourceHttpError, type SourceAuth } from '../source-http.ts';
import { TRACKER_SOURCE, writeFieldAndContexts } from './field-writer.ts';
import { writeGrants } from './grant-writer.ts';
import { writeOptionsAndDefaults } from './option-tree-writer.ts';
import { fieldFingerprint, maxIdsOf, walkOptions, type SourceFieldHeader, type SourceMaxIds, type SourcePrincipals, type SourceTrackerField } from './tracker-model.ts';
import { TrackerReader } from './tracker-reader.ts';
import { UnitTally } from './unit-tally.ts';

export interface TrackerImportOptions {
  url: string;
  auth: SourceAuth;
  /** Field ids (`10000` or `customfield_10000`) or names; none: every select field. */
  fields?: string[];
  dryRun: boolean;
  progress: (m: string) => void;
  /** Per request to the source (tests shorten it). */
  timeoutMs?: number;
  /** The largest answer read (SOURCE_MAX_ANSWER_MB); source-http.ts's default without it. */
  maxAnswerBytes?: number;
}

/** Thrown inside a dry run's transaction to roll it back after the writes were counted. */
class DryRunRollback extends Error {}

export async function importFromTracker(deps: MigrationDeps, opts: TrackerImportOptions): Promise<MigrationReport> {
  const client = new SourceClient({ url: opts.url, auth: opts.auth, timeoutMs: opts.timeoutMs, maxAnswerBytes: opts.maxAnswerBytes });
  const reader = new TrackerReader(client, opts.progress);
  const report: MigrationReport = { source: `tracker ${client.base.href}`, dryRun: opts.dryRun, units: [], usersWithoutPassword: [], warnings: [] };
  const all = await reader.fields();
  const chosen = pick(all, opts.fields, report.warnings);
  // Every chosen field is read first: the run's largest source ids must be known before a new id is given.
  const read: Read[] = [];
  for (const [i, header] of chosen.entries()) {
    opts.progress(`tracker: reading field ${header.name} (${header.id}), ${i + 1} of ${chosen.length}`);
    try {
      const field = await reader.field(header);
      read.push({ header, field, principals: await reader.principals(field) });
    } catch (err) {
      read.push({ header, error: err });
    }
  }
  const max = maxIdsOf(all, read.flatMap((r) => (r.field ? [r.field] : [])));
  const users = new Set<string>();
  for (const [i, r] of read.entries()) {
    opts.progress(`tracker: writing field ${r.header.name} (${r.header.id}), ${i + 1} of ${read.length}`);
    const unit = await importField(deps, r, { dryRun: opts.dryRun, max }, users);
    opts.progress(`tracker: field ${r.header.name}: ${unit.outcome}${unit.reason ? ` (${unit.reason})` : ''}`);
    report.units.push(unit);
  }
  report.usersWithoutPassword = [...users].sort();
  report.warnings.push(...reader.warnings);
  return report;
}

/** The fields `wanted` names (all when none); a name that matches no select field is a warning. */
function pick(all: SourceFieldHeader[], wanted: readonly string[] | undefined, warnings: string[]): SourceFieldHeader[] {
  if (!wanted || wanted.length === 0) return all;
  const matches = (f: SourceFieldHeader, w: string) =>
    String(f.id) === w.trim() || `customfield_${f.id}` === w.trim() || f.name.toLowerCase() === w.trim().toLowerCase();
  for (const w of wanted) if (!all.some((f) => matches(f, w))) warnings.push(`no select field ${w} on the source`);
  return all.filter((f) => wanted.some((w) => matches(f, w)));
}

/** A field as read from the source, or why it could not be read. */
interface Read {
  header: SourceFieldHeader;
  field?: SourceTrackerField;
  principals?: SourcePrincipals;
  error?: unknown;
}

async function importField(deps: MigrationDeps, r: Read, { dryRun, max }: { dryRun: boolean; max: SourceMaxIds }, users: Set<string>): Promise<UnitReport> {
  const unit: UnitReport = { kind: 'field', name: `${r.header.name} (${r.header.id})`, outcome: 'failed', counts: {}, mapped: [], skipped: {} };
  const { field, principals } = r;
  if (!field || !principals) return { ...unit, reason: reasonOf(r.error) };
  try {
    const fingerprint = fieldFingerprint(field, principals);
    const knex = deps.db.knex;
    const recorded = await migrationRecords.find(knex, TRACKER_SOURCE, 'field', String(field.id));
    if (recorded?.fingerprint === fingerprint && (await tracker.field(knex, Number(recorded.local_id)))) {
      return { ...unit, outcome: 'unchanged', counts: unchangedCounts(field) };
    }
    const tally = new UnitTally();
    try {
      await knex.transaction(async (trx) => {
        const written = await writeFieldAndContexts(trx, field, tally, max);
        await writeOptionsAndDefaults(trx, field, written, tally, max);
        await writeGrants(trx, field, principals, written, tally);
        await migrationRecords.save(trx, TRACKER_SOURCE, 'field', { sourceId: String(field.id), localId: String(written.id), fingerprint });
        if (dryRun) throw new DryRunRollback();
      });
    } catch (err) {
      if (!(err instanceof DryRunRollback)) throw err;
    }
    if (!dryRun) {
      for (const topic of [TRACKER_TOPIC, FIELD_OPTIONS_TOPIC, ...(tally.counts.users || tally.counts.groups ? [DIRECTORY_TOPIC] : [])]) {
        await deps.db.changes.publish(topic);
      }
    }
    for (const u of tally.usersCreated) users.add(u);
    const outcome = !tally.changed ? 'unchanged' : dryRun ? 'would-import' : 'imported';
    return { ...unit, outcome, counts: tally.counts, mapped: tally.mapped, skipped: tally.skipped };
  } catch (err) {
    return { ...unit, reason: reasonOf(err) };
  }
}

/** What a re-run reports for a field it found unchanged: everything the source has, as unchanged. */
function unchangedCounts(field: SourceTrackerField): UnitReport['counts'] {
  const n = (unchanged: number) => ({ created: 0, updated: 0, unchanged });
  const options = field.contexts.reduce((sum, c) => sum + [...walkOptions(c.options)].length, 0);
  const defaults = field.contexts.filter((c) => c.defaultOptionIds.length > 0).length;
  const counts: UnitReport['counts'] = { fields: n(1), contexts: n(field.contexts.length), options: n(options) };
  if (defaults > 0) counts.defaults = n(defaults);
  if (field.grants.length > 0) counts.grants = n(field.grants.length);
  return counts;
}

/** One line, naming the cause; the source client's messages never hold the credential. */
function reasonOf(err: unknown): string {
  if (err instanceof SourceHttpError && err.kind === 'forbidden' && /\/user\//.test(err.message)) {
    return `${err.message.replace(/: the user lacks the right$/, '')}: the importing user needs a field-editor grant on this field at the source (global, or on each context)`;
  }
  let message = err instanceof Error ? err.message : String(err);
  // A database error from knex starts with the statement; its cause is after the last ' - '.
  if (err instanceof Error && 'code' in err && message.includes(' - ')) message = message.slice(message.lastIndexOf(' - ') + 3);
  return message.replace(/\s+/g, ' ').trim().slice(0, 300) || 'unknown error';
}
