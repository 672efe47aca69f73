import type { Knex } from 'knex';

/** The part of node-postgres's client used here; `pipeline` is its connection setting (see knex.ts). */
interface PipelinedClient {
  pipeline?: boolean;
  query(text: string, values: readonly unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Puts `query` on the transaction's connection now and resolves as soon as it is sent, with the promise of its
 * rows: statements the caller starts afterwards are sent behind it without waiting for its answer, and the
 * database runs them in that order (one flight, one round trip). Knex's own way to a query passes through
 * several promise steps, so two knex queries started together may reach the connection in either order; this
 * one is handed to node-postgres directly. A connection that is not pipelined (the embedded database, or
 * PostgreSQL with pipelining off) answers the query first, so the order holds there too, in two round trips.
 */
export async function sendNow<R>(trx: Knex.Transaction, query: Knex.Raw | Knex.QueryBuilder): Promise<{ rows: Promise<R[]> }> {
  const conn = (await (trx.client as { acquireConnection(): Promise<unknown> }).acquireConnection()) as PipelinedClient;
  if (conn.pipeline !== true) {
    const out = (await query) as R[] | { rows: R[] };
    return { rows: Promise.resolve(Array.isArray(out) ? out : out.rows) };
  }
  const { sql, bindings } = query.toSQL().toNative();
  const rows = conn.query(sql, bindings).then((r) => r.rows as R[]);
  rows.catch(() => undefined); // the caller awaits it later; a failure must not count as unhandled meanwhile
  return { rows };
}
