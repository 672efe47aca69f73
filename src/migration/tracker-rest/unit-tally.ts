// What one field's import did, gathered while it runs and turned into its UnitReport: counts per kind of
// record, ids that were taken here and mapped, what was left alone and why, and the users created without
// a usable password. `changed` tells an import that wrote something from a re-run that found all in place.
import type { UnitReport } from '../report.ts';

export type Change = 'created' | 'updated' | 'unchanged';

export class UnitTally {
  readonly counts: UnitReport['counts'] = {};
  readonly mapped: UnitReport['mapped'] = [];
  readonly skipped: Record<string, number> = {};
  readonly usersCreated: string[] = [];
  changed = false;

  add(kind: string, change: Change, n = 1): void {
    if (n <= 0) return;
    const c = (this.counts[kind] ??= { created: 0, updated: 0, unchanged: 0 });
    c[change] += n;
    if (change !== 'unchanged') this.changed = true;
  }

  skip(reason: string, n = 1): void {
    if (n > 0) this.skipped[reason] = (this.skipped[reason] ?? 0) + n;
  }

  map(kind: string, from: number | string, to: number | string): void {
    this.mapped.push({ kind, from, to });
  }
}
