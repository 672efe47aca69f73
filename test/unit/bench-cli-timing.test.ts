import { describe, expect, it } from 'vitest';
import { renderCliTiming, type CliTimingRow } from '../../bench/lib/cli-timing.ts';

const row = (label: string, medianSec: number, target: boolean, floor?: CliTimingRow['floor']): CliTimingRow => ({
  label,
  medianSec,
  minSec: medianSec - 0.01,
  maxSec: medianSec + 0.01,
  ratioToNode: medianSec / 0.03,
  target,
  floor,
});

describe('renderCliTiming', () => {
  it('checks the targets against 0.5 s, quotes a floor, and lists the floors in the table only', () => {
    const { table, checks } = renderCliTiming(
      [row('bare Node start', 0.03, false), row('`help`', 0.05, true), row('`user add`, embedded, no server', 0.72, true, { sec: 0.7, name: 'PGlite alone while hashing' }), row('PGlite alone', 0.7, false)],
      10,
    );
    expect(checks).toEqual([
      'PASS  cli: help < 0.5 s (got 0.05 s median)',
      'FAIL  cli: user add, embedded, no server < 0.5 s (got 0.72 s median; PGlite alone while hashing 0.70 s)',
    ]);
    expect(table[0]).toBe('Command line, 10 runs of each case in turns (seconds from spawn to exit):');
    expect(table).toContain('| PGlite alone | 0.70 | 0.69 | 0.71 | 23.3 |');
  });
});
