import type { ItemNote, UnitReport } from '../report.ts';

type Change = 'created' | 'updated' | 'unchanged';

/** The counts, mapped ids and skipped items of one unit (a space) while it is written. */
export class UnitCounter {
  readonly counts: UnitReport['counts'] = {};
  readonly mapped: UnitReport['mapped'] = [];
  readonly skipped: Record<string, number> = {};
  /** Items kept hidden or not imported, each named (the report lists them). */
  readonly items: ItemNote[] = [];

  add(kind: string, change: Change, n = 1): void {
    const c = (this.counts[kind] ??= { created: 0, updated: 0, unchanged: 0 });
    c[change] += n;
  }

  skip(reason: string, n = 1): void {
    if (n > 0) this.skipped[reason] = (this.skipped[reason] ?? 0) + n;
  }

  note(item: ItemNote): void {
    this.items.push(item);
  }

  /** Whether anything was (or, in a dry run, would be) created or updated. */
  get changed(): boolean {
    return Object.values(this.counts).some((c) => c.created + c.updated > 0);
  }
}
