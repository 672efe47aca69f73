import type { Knex } from 'knex';
import { FlightConnection, type PgClientLike } from './flight-connection.ts';
import { senderOf, type Statement, type StatementSender } from './send-now.ts';

/** Sends a transaction's last statement with its COMMIT right behind it, and answers the statement's rows. */
export type SendLast = (statement: Knex.QueryBuilder | Knex.Raw) => Promise<unknown[]>;

interface PoolClient {
  config?: { connection?: { pipeline?: boolean } };
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/**
 * A transaction (like `knex.transaction(work)`) whose work may send its last statement with the COMMIT right
 * behind it (`sendLast`): on a pipelined PostgreSQL connection both go out in one flight, so the locks the
 * transaction holds are released one round trip earlier. Should that statement fail, PostgreSQL answers the
 * COMMIT with a rollback (a transaction with an error cannot commit), and the statement's error is thrown as
 * from any other statement. Work that does not call `sendLast` is committed after it returns, as usual; work
 * that throws is rolled back. After `sendLast` nothing more may be sent: the transaction is over. `sender`
 * sends statements in order without waiting for earlier answers (send-now.ts); knex queries may be mixed in
 * once the statements sent before them are answered.
 *
 * On a pipelined connection the transaction runs on a FlightConnection (flight-connection.ts): its BEGIN goes
 * out with its first statement and its COMMIT with its last, each flight in one write to the socket.
 * `beforeCommit`, when given, is the transaction's very last statement, right before the COMMIT (in the same
 * flight): a change feed's announcement (ChangeFeed.announceWithin); its rows come with the result.
 */
export async function transactionWithCommitBehind<T>(
  knex: Knex,
  work: (trx: Knex.Transaction, sendLast: SendLast, sender: StatementSender) => Promise<T>,
  beforeCommit?: Statement,
): Promise<Committed<T>> {
  const pool = knex.client as PoolClient;
  if (!isPipelined(knex)) return run(await knex.transaction(), work, undefined, beforeCommit);
  const client = (await pool.acquireConnection()) as PgClientLike;
  try {
    const flight = new FlightConnection(client);
    return await run(await knex.transaction({ connection: flight }), work, flight, beforeCommit);
  } finally {
    await pool.releaseConnection(client);
  }
}

/** Whether `knex`'s transactions run on a FlightConnection (pipelined PostgreSQL connections). */
export const isPipelined = (knex: Knex): boolean => (knex.client as PoolClient).config?.connection?.pipeline === true;

/** What a committed transaction answers: the work's result, and the rows of the statement run before its COMMIT. */
export interface Committed<T> {
  result: T;
  beforeCommitRows: unknown[];
}

async function run<T>(
  trx: Knex.Transaction,
  work: (trx: Knex.Transaction, sendLast: SendLast, sender: StatementSender) => Promise<T>,
  flight: FlightConnection | undefined,
  beforeCommit: Statement | undefined,
): Promise<Committed<T>> {
  let committing: Promise<unknown> | undefined;
  let lastRows: Promise<unknown[]> = Promise.resolve([]);
  try {
    const sender = await senderOf(trx);
    const sendLast: SendLast = async (statement) => {
      if (committing) throw new Error('the transaction has already been committed');
      if (flight) {
        // One write: the statement(s) and the COMMIT; knex's own COMMIT below is answered from that one.
        const { rows } = flight.commitWith(beforeCommit ? [statement, beforeCommit] : [statement], (s) => sender.send(s));
        if (rows[1]) lastRows = rows[1];
        committing = trx.commit();
        committing.catch(() => undefined); // awaited below
        return rows[0]!;
      }
      const rows = sender.send<unknown>(statement);
      // Not pipelined: the commit waits for the statement's answer (and is not sent if it failed).
      await rows;
      if (beforeCommit) await (lastRows = sender.send(beforeCommit));
      committing = trx.commit();
      committing.catch(() => undefined); // awaited below
      return rows;
    };
    const result = await work(trx, sendLast, sender);
    if (!committing && beforeCommit) await (lastRows = sender.send(beforeCommit));
    await (committing ?? trx.commit());
    return { result, beforeCommitRows: await lastRows };
  } catch (err) {
    // Committed (or rolled back by the database, its last statement having failed): the connection is let go
    // once that answer is in. Otherwise the work failed earlier: rolled back here.
    if (committing) await committing.catch(() => undefined);
    else if (!trx.isCompleted()) await trx.rollback().catch(() => undefined);
    throw err;
  }
}
