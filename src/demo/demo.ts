import type { AppContext } from '../context.ts';
import { runImport } from '../importer/import.service.ts';
import { demoDocument } from './demo-data.ts';

/**
 * Loads the demo data set (host-api.md, "Demo data set") into a database that has only the first
 * administrator. The data is an import document, so the demo also exercises the import path.
 */
export async function loadDemo(ctx: AppContext): Promise<void> {
  await runImport(ctx, demoDocument(), () => undefined);
}
