// The final report of an `import-from` run as text, whatever the source (the JSON form is the MigrationReport
// itself). Never holds credentials: the source's label names a file or a URL without them.
import type { ItemNote, MigrationReport, UnitReport } from './report.ts';

/** Lines of mapped ids shown per unit before the rest is counted (all of them are in `--json`). */
const MAPPED_SHOWN = 50;
/** Lines of hidden or left-out items shown per unit and kind (all of them are in `--json`). */
const ITEMS_SHOWN = 100;

function countLine(kind: string, c: { created: number; updated: number; unchanged: number }): string {
  return `  ${kind}: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged`;
}

/** Hidden items first (what an administrator may want to lift), then those not imported, each named. */
function itemLines(items: readonly ItemNote[], dryRun: boolean): string[] {
  const lines: string[] = [];
  const hidden = items.filter((i) => i.outcome === 'hidden');
  const left = items.filter((i) => i.outcome === 'not imported');
  const name = (i: ItemNote) => `${i.kind} ${i.id}${i.localId !== undefined && i.localId !== i.id ? ` (here ${i.localId})` : ''}${i.title ? ` "${i.title}"` : ''}: ${i.reason}`;
  if (hidden.length > 0) {
    lines.push(`  ${dryRun ? 'would be ' : ''}imported hidden (nobody may read them until an administrator sets who may: PUT /rest/api/content/ID/restriction; an empty list lets every reader of the space read it):`);
    for (const i of hidden.slice(0, ITEMS_SHOWN)) lines.push(`    ${name(i)}`);
    if (hidden.length > ITEMS_SHOWN) lines.push(`    … ${hidden.length - ITEMS_SHOWN} more (see --json)`);
  }
  if (left.length > 0) {
    lines.push('  items not imported:');
    for (const i of left.slice(0, ITEMS_SHOWN)) lines.push(`    ${name(i)}`);
    if (left.length > ITEMS_SHOWN) lines.push(`    … ${left.length - ITEMS_SHOWN} more (see --json)`);
  }
  return lines;
}

function unitLines(u: UnitReport, dryRun: boolean): string[] {
  const verb = dryRun && u.outcome !== 'failed' ? ' (dry run: counts of what would be written)' : '';
  const lines = [`${u.kind} ${u.name}: ${u.outcome}${u.reason ? `: ${u.reason}` : ''}${verb}`];
  for (const [kind, c] of Object.entries(u.counts)) lines.push(countLine(kind, c));
  if (u.mapped.length > 0) {
    lines.push(`  mapped ids (taken here; scripts that use the old id must change): ${u.mapped.length}`);
    for (const m of u.mapped.slice(0, MAPPED_SHOWN)) lines.push(`    ${m.kind} ${m.from} -> ${m.to}`);
    if (u.mapped.length > MAPPED_SHOWN) lines.push(`    … ${u.mapped.length - MAPPED_SHOWN} more (see --json)`);
  }
  const skipped = Object.entries(u.skipped).filter(([, n]) => n > 0);
  if (skipped.length > 0) {
    lines.push('  not imported:');
    for (const [reason, n] of skipped) lines.push(`    ${reason}: ${n}`);
  }
  lines.push(...itemLines(u.items ?? [], dryRun));
  if (u.nobodyReads && u.outcome !== 'failed') {
    lines.push(`  nobody can read this space yet: grant read on the Spaces screen, or POST /rest/api/space/${u.name}/permission`);
  }
  return lines;
}

/** The report as text: one block per unit, users without a password, warnings, and a closing tally. */
export function reportText(r: MigrationReport): string {
  const lines = [`import-from ${r.source}${r.dryRun ? ' (dry run: nothing was written)' : ''}`];
  for (const u of r.units) lines.push(...unitLines(u, r.dryRun));
  if (r.units.length === 0) lines.push('nothing to import: the source holds no unit that was asked for');
  if (r.usersWithoutPassword.length > 0) {
    const when = r.dryRun ? 'would have' : 'have';
    lines.push(`users without a password (${r.usersWithoutPassword.length}; they ${when} no usable password: set one with \`addon-pair user passwd NAME\`):`);
    lines.push(`  ${r.usersWithoutPassword.join(', ')}`);
  }
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  const tally = new Map<string, number>();
  for (const u of r.units) tally.set(u.outcome, (tally.get(u.outcome) ?? 0) + 1);
  lines.push(`total: ${[...tally].map(([outcome, n]) => `${n} ${outcome}`).join(', ') || 'no units'}`);
  return `${lines.join('\n')}\n`;
}

/** The command's exit code: 0 when every unit was imported, unchanged or would be imported; 1 when any failed. */
export const exitCodeOf = (r: MigrationReport): number => (r.units.some((u) => u.outcome === 'failed') ? 1 : 0);
