import type { AppServices } from '../services.ts';
import { runImport } from '../importer/import.service.ts';
import { demoDocument } from './demo-data.ts';

/**
 * Loads the demo data set (host-api.md, "Demo data set") into a database that has only the first
 * administrator. The data is an import document, so the demo also exercises the import path.
 */
export async function loadDemo(services: AppServices): Promise<void> {
  await runImport(services, demoDocument(), () => undefined);
}

/** The demo users' passwords, whose hashes bootstrap starts before the migrations (bootstrap.ts). */
export function demoPasswords(): string[] {
  const users = (demoDocument().users ?? []) as { password?: string }[];
  return users.flatMap((u) => (u.password ? [u.password] : []));
}
