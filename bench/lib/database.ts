// A throw-away PostgreSQL database per run, so the bench never touches real data
// and always starts from an empty, freshly migrated schema.
import pg from 'pg';

export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ThrowAwayDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function withClient<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createThrowAwayDatabase(adminUrl: string): Promise<ThrowAwayDatabase> {
  const name = `bench_${Date.now()}`;
  // The name is generated here (letters, digits, underscore), so quoting it is enough.
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      // WITH (FORCE) (PostgreSQL 13+) ends connections a killed server may have left behind.
      await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
