import { describe, expect, it } from 'vitest';
import { FlightConnection, type PgClientLike } from '../../src/platform/db/flight-connection.ts';

/**
 * A stand-in for a pipelined node-postgres client: records each statement with the socket write it went out in
 * (a write happens when the cork count returns to zero), and answers every statement at once.
 */
function fakeClient() {
  const writes: string[][] = [];
  let corked = 0;
  let pending: string[] = [];
  const flush = () => {
    if (corked === 0 && pending.length > 0) {
      writes.push(pending);
      pending = [];
    }
  };
  const client: PgClientLike = {
    pipeline: true,
    processID: 42,
    connection: {
      stream: {
        cork: () => void corked++,
        uncork: () => {
          corked--;
          flush();
        },
      },
    },
    query(config: unknown, values?: unknown, callback?: (err: Error | null, result?: unknown) => void) {
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      pending.push(text);
      flush();
      const result = { command: text.split(' ')[0]!.replace(';', '').toUpperCase(), rows: [{ text }] };
      const cb = typeof values === 'function' ? (values as typeof callback) : callback;
      if (cb) return void queueMicrotask(() => cb(null, result));
      return Promise.resolve(result);
    },
  };
  return { client, writes };
}

/** knex's pg dialect calls `query(config, callback)`. */
const knexQuery = (c: FlightConnection, text: string) =>
  new Promise<unknown>((resolve, reject) => void c.query({ text, values: [] }, (err: Error | null, r?: unknown) => (err ? reject(err) : resolve(r))));

describe('FlightConnection', () => {
  it('answers knex’s BEGIN at once and sends it in front of the first statement, in one write', async () => {
    const { client, writes } = fakeClient();
    const c = new FlightConnection(client);
    await knexQuery(c, 'BEGIN;');
    expect(writes).toEqual([]);
    await (c.query({ text: 'select 1', values: [] }) as Promise<unknown>);
    expect(writes).toEqual([['BEGIN;', 'select 1']]);
  });

  it('sends the statements of `together` in one write', () => {
    const { client, writes } = fakeClient();
    const c = new FlightConnection(client);
    void knexQuery(c, 'BEGIN;');
    c.together(() => {
      void c.query({ text: 'lock', values: [] });
      void c.query({ text: 'decide', values: [] });
    });
    expect(writes).toEqual([['BEGIN;', 'lock', 'decide']]);
  });

  it('sends the last statements with the COMMIT, and answers knex’s own COMMIT from it without sending another', async () => {
    const { client, writes } = fakeClient();
    const c = new FlightConnection(client);
    await knexQuery(c, 'BEGIN;');
    void c.query({ text: 'lock', values: [] });
    const { rows, committed } = c.commitWith(['insert', 'announce'], (s) => c.query({ text: s, values: [] }) as Promise<unknown[]>);
    expect(rows).toHaveLength(2);
    expect(await knexQuery(c, 'COMMIT;')).toBe(await committed);
    expect(writes).toEqual([['BEGIN;', 'lock'], ['insert', 'announce', 'COMMIT;']]);
  });

  it('sends nothing for a transaction that ends before its first statement', async () => {
    const { client, writes } = fakeClient();
    const c = new FlightConnection(client);
    await knexQuery(c, 'BEGIN;');
    await knexQuery(c, 'ROLLBACK');
    expect(writes).toEqual([]);
  });

  it('sends a ROLLBACK once statements went out', async () => {
    const { client, writes } = fakeClient();
    const c = new FlightConnection(client);
    await knexQuery(c, 'BEGIN;');
    await (c.query({ text: 'lock', values: [] }) as Promise<unknown>);
    await knexQuery(c, 'ROLLBACK');
    expect(writes).toEqual([['BEGIN;', 'lock'], ['ROLLBACK']]);
  });
});
