import { describe, expect, it } from 'vitest';
import { emptyResult, renderChecks, renderTable } from '../../bench/lib/report.ts';
import type { ScenarioResult } from '../../bench/lib/types.ts';

const result = (over: Partial<ScenarioResult> & { name: string }): ScenarioResult => ({ ...emptyResult(over.name, 'http'), ...over });

describe('bench report', () => {
  it('shows a scenario not run on this storage as SKIP with its reason, not as an ERROR that fails the run', () => {
    const skipped = result({ name: 'fieldeditor-a1-page-filter', skipped: 'PostgreSQL only: their setup seeds 20,000 fields with SQL' });
    const checks = renderChecks([skipped]);
    expect(checks).toEqual(['SKIP  fieldeditor-a1-page-filter: PostgreSQL only: their setup seeds 20,000 fields with SQL']);
    expect(checks.some((l) => l.startsWith('ERROR') || l.startsWith('FAIL'))).toBe(false);
    const row = renderTable([skipped]).split('\n').find((l) => l.startsWith('| fieldeditor-a1-page-filter'));
    expect(row?.trim().endsWith('| SKIP |')).toBe(true);
    // No figures for what did not run (not "<1 ms").
    expect(row).not.toContain('<1');
  });

  it('still reports a scenario that failed to run as an ERROR', () => {
    const failed = result({ name: 'broken', error: 'setup failed\nstack' });
    expect(renderChecks([failed])).toEqual(['ERROR broken: setup failed']);
    expect(renderTable([failed])).toContain('| **ERROR** |');
  });
});
