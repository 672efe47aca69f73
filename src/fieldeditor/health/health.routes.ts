import { Router } from 'express';

/**
 * `GET {api_base}/health/status` without authentication (clients call it before anything else and stop
 * unless it answers 200). Mounted before authentication, so even a wrong credential gets the health answer.
 */
export function createHealthRouter({ ping }: { ping: () => Promise<void> }): Router {
  const r = Router();
  r.get('/health/status', async (_req, res) => {
    try {
      await ping();
      res.json({ status: 'OK' });
    } catch {
      res.status(503).json({ statusCode: 503, subCode: 503000, message: 'The field editor cannot reach its database.' });
    }
  });
  return r;
}
