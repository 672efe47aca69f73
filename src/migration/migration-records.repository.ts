import type { Knex } from 'knex';
import { createHash } from 'node:crypto';

/** One imported record: the source's id, ours, and the fingerprint of what was imported. */
export interface MigrationRecord {
  source_id: string;
  local_id: string;
  fingerprint: string;
}

/** What `save` records: the source's id, ours, and the fingerprint of what was imported. */
export interface SavedRecord {
  sourceId: string;
  localId: string;
  fingerprint: string;
}

/** Lookups of `whereIn` and batch inserts go in slices, so a space of many thousand pages never builds one giant statement. */
const SLICE = 1000;

/**
 * Hex SHA-256 of a JSON value, with object keys sorted, so the same imported state always gives the same
 * fingerprint (a re-run compares it to skip what did not change).
 */
export function fingerprintOf(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v instanceof Date) return v.toISOString();
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
    return v;
  };
  return createHash('sha256').update(JSON.stringify(sorted(value) ?? null)).digest('hex');
}

/** Table access for `migration_records` (issue 31): what import-from brought across, by source and kind. */
export const migrationRecords = {
  /** The records of these source ids (absent ones are simply missing from the map). */
  async findMany(q: Knex, source: string, kind: string, sourceIds: readonly string[]): Promise<Map<string, MigrationRecord>> {
    const out = new Map<string, MigrationRecord>();
    for (let i = 0; i < sourceIds.length; i += SLICE) {
      const rows = (await q('migration_records')
        .select('source_id', 'local_id', 'fingerprint')
        .where({ source, kind })
        .whereIn('source_id', sourceIds.slice(i, i + SLICE))) as MigrationRecord[];
      for (const r of rows) out.set(r.source_id, r);
    }
    return out;
  },

  async find(q: Knex, source: string, kind: string, sourceId: string): Promise<MigrationRecord | undefined> {
    return (await q('migration_records').select('source_id', 'local_id', 'fingerprint').where({ source, kind, source_id: sourceId }).first()) as
      | MigrationRecord
      | undefined;
  },

  /** Records (or re-records) one import of a source record as our `localId` with this fingerprint. */
  save(q: Knex, source: string, kind: string, r: SavedRecord): Promise<void> {
    return migrationRecords.saveMany(q, source, kind, [r]);
  },

  /** `save` for many records (an option tree of thousands), a slice of them per statement. */
  async saveMany(q: Knex, source: string, kind: string, records: readonly SavedRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += SLICE) {
      await q('migration_records')
        .insert(records.slice(i, i + SLICE).map((r) => ({ source, kind, source_id: r.sourceId, local_id: r.localId, fingerprint: r.fingerprint, imported_at: q.fn.now() })))
        .onConflict(['source', 'kind', 'source_id'])
        .merge(['local_id', 'fingerprint', 'imported_at']);
    }
  },
};
