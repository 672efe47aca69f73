// Discovers scenario files: every bench/scenarios/*.ts exporting `scenarios: Scenario[]`.
// New features add a file there; nothing else needs to change.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Scenario } from './types.ts';

export async function loadScenarios(benchDir: string): Promise<Scenario[]> {
  const dir = join(benchDir, 'scenarios');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
  const all: Scenario[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { scenarios?: unknown };
    if (!Array.isArray(mod.scenarios))
      throw new Error(`bench/scenarios/${file} must export \`scenarios: Scenario[]\``);
    all.push(...(mod.scenarios as Scenario[]));
  }
  const seen = new Set<string>();
  for (const s of all) {
    if (seen.has(s.name)) throw new Error(`duplicate scenario name "${s.name}"`);
    seen.add(s.name);
  }
  return all;
}
