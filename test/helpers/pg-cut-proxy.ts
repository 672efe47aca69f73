import net from 'node:net';

/** Where a cut falls, relative to the first client message that holds the armed text. */
export type CutPoint = 'before-sent' | 'after-sent' | 'after-answer';

/** PostgreSQL's ReadyForQuery message: the statement (and an implicit transaction's COMMIT) is over. */
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5]);

/**
 * A TCP proxy between the server and PostgreSQL that a test controls, to lose a connection at a chosen point of
 * a write: `arm(text, point)` cuts the next connection whose client sends `text` (a function's name, `COMMIT`),
 * before that message reaches the database, right after it did, or once the database answered it (the answer,
 * up to and with its ReadyForQuery, is swallowed: the write committed, the server never hears of it).
 */
export class PgCutProxy {
  private readonly server = net.createServer((client) => this.pipe(client));
  private armed: { text: string; point: CutPoint; done: () => void } | undefined;
  cuts = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Cuts the next connection that sends `text`, at `point`; resolves once it is cut. */
  arm(text: string, point: CutPoint): Promise<void> {
    return new Promise((done) => (this.armed = { text, point, done }));
  }

  disarm(): void {
    this.armed = undefined;
  }

  async close(): Promise<void> {
    this.server.close();
    await new Promise((r) => setTimeout(r, 10));
  }

  private pipe(client: net.Socket): void {
    const db = net.connect(this.target);
    let swallowing: (() => void) | undefined;
    const cut = (done: () => void) => {
      client.destroy();
      db.destroy();
      this.cuts++;
      this.armed = undefined;
      done();
    };
    client.on('data', (chunk: Buffer) => {
      const a = this.armed;
      if (a && chunk.includes(a.text)) {
        if (a.point === 'before-sent') return cut(a.done);
        db.write(chunk);
        if (a.point === 'after-sent') return void db.end(() => cut(a.done));
        this.armed = undefined;
        swallowing = a.done;
        return;
      }
      db.write(chunk);
    });
    db.on('data', (chunk: Buffer) => {
      if (!swallowing) return void client.write(chunk);
      if (chunk.includes(READY_FOR_QUERY)) cut(swallowing);
    });
    const end = () => {
      client.destroy();
      db.destroy();
    };
    client.on('error', end).on('close', end);
    db.on('error', end).on('close', end);
  }
}
