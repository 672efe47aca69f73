/** Where the embedded database lives when DATA_DIR is not set (config.ts). */
export const DEFAULT_DATA_DIR = './data';

/** The in-memory embedded database: nothing on disk, so no folder, lock or command socket. */
export const MEMORY_DATA_DIR = 'memory://';

/**
 * The embedded database's folder as config.ts reads it (trimmed, defaulted), or undefined when the
 * configuration names PostgreSQL or memory. Without zod: the command line finds a running embedded server
 * with it before loading the configuration (main.ts). An empty DATA_DIR, which config.ts refuses, gives
 * undefined here, so that the full configuration check reports it.
 */
export function embeddedDataDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.DATABASE_URL?.trim()) return undefined;
  const dir = (env.DATA_DIR ?? DEFAULT_DATA_DIR).trim();
  return dir && dir !== MEMORY_DATA_DIR ? dir : undefined;
}

/** The same for a loaded configuration: its embedded database's folder, or undefined (PostgreSQL, memory). */
export function embeddedFolderOf(config: { databaseUrl?: string; dataDir: string }): string | undefined {
  return config.databaseUrl || config.dataDir === MEMORY_DATA_DIR ? undefined : config.dataDir;
}
