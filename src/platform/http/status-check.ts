import type { Request, Response } from 'express';

/** GET /status for load balancers: no auth, 503 when `ping` (a trivial database query) does not answer within 2 s. */
export async function answerStatus(req: Request, res: Response, ping: () => Promise<unknown>): Promise<void> {
  try {
    await Promise.race([
      ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('database check timed out')), 2000).unref()),
    ]);
    res.json({ state: 'RUNNING' });
  } catch (err) {
    req.log?.error({ err }, 'health check failed');
    res.status(503).json({ state: 'ERROR' });
  }
}
