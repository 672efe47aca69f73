import type { Knex } from 'knex';
import { preparedName } from './prepared-statement.ts';
import { isCompiled, type CompiledStatement } from './statement-template.ts';

/** What a sender sends: a knex query, or a statement compiled once (statement-template.ts). */
export type Statement = Knex.Raw | Knex.QueryBuilder | CompiledStatement;

/**
 * The part of node-postgres's client used here; `pipeline` is its connection setting (see knex.ts), `together`
 * that of a FlightConnection (flight-connection.ts).
 */
interface PipelinedClient {
  pipeline?: boolean;
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
  together?<T>(send: () => T): T;
}

/** Sends statements of one transaction in the order `send` is called. */
export interface StatementSender {
  /** True when `send` puts the statement on the connection at once (a flight: no wait for earlier answers). */
  readonly pipelined: boolean;
  /** Sends `statement` (at once when pipelined, else once the earlier ones are answered) and answers its rows. */
  send<R>(statement: Statement): Promise<R[]>;
  /** Runs `send`, whose statements then leave in one write to the socket where the connection can do that. */
  together<T>(send: () => T): T;
}

/**
 * The sender of a transaction's statements. On a pipelined PostgreSQL connection a statement is handed to
 * node-postgres directly and leaves at once: statements sent one after the other go out without waiting for
 * each other's answers, and the database runs them in that order (one flight, one round trip). Knex's own way
 * to a query passes through several promise steps, so two knex queries started together may reach the
 * connection in either order; these do not. A connection that is not pipelined (the embedded database, or
 * PostgreSQL with pipelining off) runs each statement once the one before is answered: the same order, in more
 * round trips.
 *
 * On PostgreSQL each statement is a named prepared statement (named after its text): it is parsed and planned
 * once per connection, which cost the database more than running it. Statements sent this way must
 * therefore come from a fixed set of texts (values as parameters, no lists of varying length).
 */
export async function senderOf(trx: Knex.Transaction): Promise<StatementSender> {
  const conn = (await (trx.client as { acquireConnection(): Promise<unknown> }).acquireConnection()) as PipelinedClient;
  if (conn.pipeline === true) {
    return {
      pipelined: true,
      send<R>(statement: Statement) {
        const { sql, bindings } = isCompiled(statement) ? { sql: statement.text, bindings: statement.values } : statement.toSQL().toNative();
        const rows = conn.query({ name: preparedName('ap', sql), text: sql, values: bindings }).then((r) => r.rows as R[]);
        rows.catch(() => undefined); // the caller awaits it later; a failure must not count as unhandled meanwhile
        return rows;
      },
      together: (send) => (conn.together ? conn.together(send) : send()),
    };
  }
  let tail: Promise<unknown> = Promise.resolve();
  return {
    pipelined: false,
    send<R>(statement: Statement) {
      const rows = tail.then(() => rowsOf<R>(isCompiled(statement) ? trx.raw(statement.sql, [...statement.values] as Knex.RawBinding[]) : statement));
      tail = rows.catch(() => undefined);
      return rows;
    },
    together: (send) => send(),
  };
}

/** Runs a knex statement and answers its rows (a raw statement answers the driver's result, a query builder its rows). */
export async function rowsOf<R>(statement: Knex.Raw | Knex.QueryBuilder): Promise<R[]> {
  const out = (await statement) as R[] | { rows: R[] };
  return Array.isArray(out) ? out : out.rows;
}

/**
 * Sends `query` on the transaction's connection and resolves once it is sent, with the promise of its rows:
 * statements the caller starts afterwards (even through knex) run after it. Pipelined, the caller need not
 * wait for its answer first; otherwise it is answered before this resolves.
 */
export async function sendNow<R>(trx: Knex.Transaction, query: Statement): Promise<{ rows: Promise<R[]> }> {
  const sender = await senderOf(trx);
  const rows = sender.send<R>(query);
  if (!sender.pipelined) await rows.catch(() => undefined);
  return { rows };
}
