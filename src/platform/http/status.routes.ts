import type { RequestHandler } from 'express';
import type { Db } from '../db/knex.ts';

/** GET /status for load balancers: no auth, 503 when the database does not answer within 2 s. */
export function statusHandler(db: Db): RequestHandler {
  return async (req, res) => {
    try {
      await Promise.race([
        db.knex.raw('select 1'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('database check timed out')), 2000).unref()),
      ]);
      res.json({ state: 'RUNNING' });
    } catch (err) {
      req.log?.error({ err }, 'health check failed');
      res.status(503).json({ state: 'ERROR' });
    }
  };
}
