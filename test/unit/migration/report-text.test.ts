import { describe, expect, it } from 'vitest';
import { exitCodeOf, reportText } from '../../../src/migration/report-text.ts';
import type { MigrationReport } from '../../../src/migration/report.ts';

const report: MigrationReport = {
  source: 'export space.zip',
  dryRun: false,
  units: [
    {
      kind: 'space',
      name: 'OPS',
      outcome: 'imported',
      counts: { pages: { created: 3, updated: 1, unchanged: 2 } },
      mapped: [{ kind: 'page', from: 12, to: 4711 }],
      skipped: { 'historical versions': 7, drafts: 0 },
    },
    { kind: 'space', name: 'BAD', outcome: 'failed', reason: 'page 5 "X": Invalid storage format', counts: {}, mapped: [], skipped: {} },
  ],
  usersWithoutPassword: ['alice', 'bob'],
  warnings: ['2 characters XML forbids were dropped'],
};

describe('reportText', () => {
  it('shows counts per kind, mapped ids, skipped with reasons, users without a password and each outcome', () => {
    expect(reportText(report)).toBe(
      [
        'import-from export space.zip',
        'space OPS: imported',
        '  pages: 3 created, 1 updated, 2 unchanged',
        '  mapped ids (taken here; scripts that use the old id must change): 1',
        '    page 12 -> 4711',
        '  not imported:',
        '    historical versions: 7',
        'space BAD: failed: page 5 "X": Invalid storage format',
        'users without a password (2; they have no usable password: set one with `addon-pair user passwd NAME`):',
        '  alice, bob',
        'warning: 2 characters XML forbids were dropped',
        'total: 1 imported, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 when a unit failed, 0 otherwise', () => {
    expect(exitCodeOf(report)).toBe(1);
    expect(exitCodeOf({ ...report, units: [report.units[0]!] })).toBe(0);
  });

  it('says so in a dry run', () => {
    expect(reportText({ ...report, dryRun: true, units: [{ ...report.units[0]!, outcome: 'would-import' }] })).toMatch(/^import-from export space.zip \(dry run: nothing was written\)\nspace OPS: would-import \(dry run/);
  });
});
