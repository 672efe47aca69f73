import type { Knex } from 'knex';
import { senderOf, type StatementSender } from './send-now.ts';

/** Sends a transaction's last statement with its COMMIT right behind it, and answers the statement's rows. */
export type SendLast = (statement: Knex.QueryBuilder | Knex.Raw) => Promise<unknown[]>;

/**
 * A transaction (like `knex.transaction(work)`) whose work may send its last statement with the COMMIT right
 * behind it (`sendLast`): on a pipelined PostgreSQL connection both go out in one flight, so the locks the
 * transaction holds are released one round trip earlier. Should that statement fail, PostgreSQL answers the
 * COMMIT with a rollback (a transaction with an error cannot commit), and the statement's error is thrown as
 * from any other statement. Work that does not call `sendLast` is committed after it returns, as usual; work
 * that throws is rolled back. After `sendLast` nothing more may be sent: the transaction is over. `sender`
 * sends statements in order without waiting for earlier answers (send-now.ts); knex queries may be mixed in
 * once the statements sent before them are answered.
 */
export async function transactionWithCommitBehind<T>(
  knex: Knex,
  work: (trx: Knex.Transaction, sendLast: SendLast, sender: StatementSender) => Promise<T>,
): Promise<T> {
  const trx = await knex.transaction();
  let committing: Promise<unknown> | undefined;
  try {
    const sender = await senderOf(trx);
    const sendLast: SendLast = async (statement) => {
      if (committing) throw new Error('the transaction has already been committed');
      const rows = sender.send<unknown>(statement);
      // Not pipelined: the commit waits for the statement's answer (and is not sent if it failed).
      if (!sender.pipelined) await rows;
      committing = trx.commit();
      committing.catch(() => undefined); // awaited below
      return rows;
    };
    const result = await work(trx, sendLast, sender);
    await (committing ?? trx.commit());
    return result;
  } catch (err) {
    // Committed (or rolled back by the database, its last statement having failed): the connection is let go
    // once that answer is in. Otherwise the work failed earlier: rolled back here.
    if (committing) await committing.catch(() => undefined);
    else if (!trx.isCompleted()) await trx.rollback().catch(() => undefined);
    throw err;
  }
}
